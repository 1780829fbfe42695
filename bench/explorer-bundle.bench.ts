/**
 * Weight of the API explorer page (`/explorer` of the reference server): each file minified and gzipped, the
 * script plus stylesheet of the first load against the 60 KB budget, and apart from it the code editor's chunks
 * (loaded when an edit dialog first opens). Fails over the budget.
 */
import { EXPLORER_BUDGET, explorerWeight } from './explorer-weight.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const weight = await explorerWeight();
console.log('API explorer page (esbuild, minified, SDK and dependencies bundled; gzip -9)');
for (const file of weight.files) {
  console.log(
    `  ${file.name.padEnd(24)} ${kb(file.minified).padStart(10)} minified  ${kb(file.gzipped).padStart(9)} gzipped` +
      (file.initial ? '' : '  (loaded when an edit dialog opens)'),
  );
}
console.log(
  `  first load, JS + CSS gzipped ${kb(weight.gzipped)} (budget ${kb(EXPLORER_BUDGET)}, ratio ${(weight.gzipped / EXPLORER_BUDGET).toFixed(2)})`,
);
console.log(`  code editor, loaded later: ${kb(weight.lazyGzipped)} gzipped, not in the first load`);
if (weight.gzipped > EXPLORER_BUDGET) {
  console.error(`FAIL: ${kb(weight.gzipped)} is over the ${kb(EXPLORER_BUDGET)} budget`);
  process.exitCode = 1;
}
