/** docs/relations.md is exactly what the server's relation registry generates. */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { RELATIONS_FILE, relationsMarkdown } from '../../scripts/docs-relations.js';

it('docs/relations.md is up to date with the relation registry (else run npm run docs)', async () => {
  const generated = relationsMarkdown();
  expect(generated).toMatch(/^## svc:update_template$/m);
  expect(await readFile(RELATIONS_FILE, 'utf8')).toBe(generated);
});
