/** The API reference generates from the barrels' TSDoc without warnings, and docs/api/ holds exactly that. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { API_DIR, generateApiReference } from '../../scripts/docs-api.js';
import { packageEntries } from '../../scripts/workspace-packages.js';

it('documents every export of every entry point (else add the TSDoc the warning names)', async () => {
  const { files, warnings } = generateApiReference();
  // A page per entry point of the workspace's packages, but their internal ones, titled with its import name.
  const titles = Object.entries(files)
    .filter(([name]) => name !== 'README.md')
    .map(([, text]) => text.slice(0, text.indexOf('\n')));
  const documented = packageEntries().filter((entry) => !entry.internal);
  expect(titles.sort()).toEqual(documented.map((entry) => `# \`${entry.name}\``).sort());
  for (const entry of documented) expect(files['README.md']).toContain(`- [\`${entry.name}\`](`);
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
