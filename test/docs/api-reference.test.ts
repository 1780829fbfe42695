/** The API reference generates from the barrels' TSDoc without warnings: every export is documented. */
import { expect, it } from 'vitest';
import { generateApiReference } from '../../scripts/docs-api.js';

it('documents every export of every entry point (else add the TSDoc the warning names)', () => {
  const { files, warnings } = generateApiReference();
  expect(Object.keys(files).sort()).toEqual(
    ['README.md', 'storefront-sdk-msw.md', 'storefront-sdk-server.md', 'storefront-sdk.md'].sort(),
  );
  expect(files['storefront-sdk.md']).toMatch(
    /^### createClient\n\n```ts\nfunction createClient\(options: ClientOptions\): Client\n```/m,
  );
  expect(files['storefront-sdk-server.md']).toMatch(/^### createServer$/m);
  expect(warnings).toEqual([]);
}, 120_000);
