/** server/src/openapi/contract.generated.json is exactly what the SDK's contract generates. */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { CONTRACT_MODULE, contractModule } from '../../scripts/openapi-contract.js';

// Building the contract's TypeScript program takes seconds, more on a loaded machine.
it('the OpenAPI contract file is up to date with sdk/src/contract (else run npm run docs)', {
  timeout: 120_000,
}, async () => {
  const generated = contractModule();
  expect(generated).toContain('"UpdateTemplateBody": {');
  expect(await readFile(CONTRACT_MODULE, 'utf8')).toBe(generated);
});
