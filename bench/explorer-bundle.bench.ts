/**
 * Weight of the API explorer page (`/explorer` of the reference server): each file minified and gzipped, and
 * the script plus stylesheet against the 60 KB budget. Fails over the budget.
 */
import { EXPLORER_BUDGET, explorerWeight } from './explorer-weight.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const weight = await explorerWeight();
console.log('API explorer page (esbuild, minified, SDK and dependencies bundled; gzip -9)');
for (const file of weight.files) {
  console.log(
    `  ${file.name.padEnd(14)} ${kb(file.minified).padStart(10)} minified  ${kb(file.gzipped).padStart(9)} gzipped`,
  );
}
console.log(
  `  JS + CSS gzipped ${kb(weight.gzipped)} (budget ${kb(EXPLORER_BUDGET)}, ratio ${(weight.gzipped / EXPLORER_BUDGET).toFixed(2)})`,
);
if (weight.gzipped > EXPLORER_BUDGET) {
  console.error(`FAIL: ${kb(weight.gzipped)} is over the ${kb(EXPLORER_BUDGET)} budget`);
  process.exitCode = 1;
}
