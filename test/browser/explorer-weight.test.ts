/** The API explorer page stays light: its script and stylesheet within 60 KB minified and gzipped. */
import { expect, it } from 'vitest';
import { EXPLORER_BUDGET, explorerWeight } from '../../bench/explorer-weight.js';

it('weighs at most 60 KB of JS + CSS, minified and gzipped', async () => {
  const weight = await explorerWeight();
  console.log(
    `explorer page: ${weight.files.map((f) => `${f.name} ${(f.gzipped / 1024).toFixed(1)} KB`).join(', ')} gzipped`,
  );
  expect(weight.gzipped).toBeLessThanOrEqual(EXPLORER_BUDGET);
  // The SDK is inside: the page needs nothing else to run.
  const script = weight.files.find((f) => f.name === 'explorer.js')!;
  expect(script.minified).toBeGreaterThan(10_000);
});
