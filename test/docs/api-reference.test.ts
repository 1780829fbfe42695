/** The API reference generates from the barrels' TSDoc without warnings, and docs/api/ holds exactly that. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { API_DIR, generateApiReference } from '../../scripts/docs-api.js';

it('documents every export of every entry point (else add the TSDoc the warning names)', async () => {
  const { files, warnings } = generateApiReference();
  expect(Object.keys(files).sort()).toEqual(
    ['README.md', 'sdk.md', 'sdk-redis.md', 'server.md', 'server-msw.md', 'themes.md'].sort(),
  );
  expect(files['sdk.md']).toMatch(
    /^### createClient\n\n```ts\nfunction createClient\(options: ClientOptions\): Client\n```/m,
  );
  expect(files['server.md']).toMatch(/^### createServer$/m);
  expect(files['sdk-redis.md']).toMatch(/^### createRedisTokenStore$/m);
  expect(warnings).toEqual([]);
  // Checked in so that the README's link works on GitHub and in the tarball: stale files fail (run npm run docs).
  expect((await readdir(API_DIR)).sort()).toEqual(Object.keys(files).sort());
  for (const [name, text] of Object.entries(files)) expect(await readFile(join(API_DIR, name), 'utf8')).toBe(text);
}, 120_000);
