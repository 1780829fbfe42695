/**
 * The API explorer page stays light: its first load (script and stylesheet) within 60 KB minified and gzipped;
 * the code editor (CodeMirror) is a chunk of its own, outside that load, fetched when an edit dialog opens.
 */
import { expect, it } from 'vitest';
import { EXPLORER_BUDGET, explorerWeight } from '../../bench/explorer-weight.js';

it('weighs at most 60 KB of JS + CSS on first load, minified and gzipped, the code editor apart', async () => {
  const weight = await explorerWeight();
  console.log(
    `explorer page: ${weight.files.map((f) => `${f.name} ${(f.gzipped / 1024).toFixed(1)} KB${f.initial ? '' : ' (later)'}`).join(', ')} gzipped`,
  );
  expect(weight.gzipped).toBeLessThanOrEqual(EXPLORER_BUDGET);
  // The SDK is inside: the page needs nothing else to run.
  const script = weight.files.find((f) => f.name === 'explorer.js')!;
  expect(script.minified).toBeGreaterThan(10_000);
  expect(script.initial).toBe(true);
  // The editor: one chunk, not loaded with the page, and bigger than the page itself.
  const later = weight.files.filter((f) => !f.initial);
  expect(later.map((f) => f.name)).toEqual([expect.stringMatching(/^code-editor-[\w-]+\.js$/)]);
  expect(weight.lazyGzipped).toBe(later[0]!.gzipped);
  expect(weight.lazyGzipped).toBeGreaterThan(weight.gzipped);
});
