/**
 * `dev`'s terminal line of a check error: what the check quotes of a file (a missing reference's name) is shown
 * with its control characters escaped, as every line of server or folder text is.
 */
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { Output } from '../src/cli/output.js';
import { printCheckErrors } from '../src/cli/watch-report.js';

it('escapes control characters of a check error before the terminal gets them', () => {
  const stdout = new PassThrough() as unknown as NodeJS.WriteStream;
  let text = '';
  (stdout as unknown as PassThrough).on('data', (chunk) => {
    text += chunk;
  });
  printCheckErrors(new Output({ json: false, stdout, env: {} }), [
    { path: 'index.html', line: 2, column: 5, rule: 'reference', message: 'no asset \u001b[2Jwiped.png' },
  ]);
  expect(text).toMatch(/error {4}index\.html:2:5 no asset \\u001b\[2Jwiped\.png \(reference\)\n$/);
  expect(text).not.toContain('\u001b');
});
