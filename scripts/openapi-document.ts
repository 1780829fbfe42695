/**
 * The OpenAPI document exactly as the server core serves it at `{base_url}/openapi.json` (an empty in-memory store
 * at the default addresses), for tools that read a file: the lint (scripts/openapi-lint.sh), client generators.
 *
 *   npx tsx scripts/openapi-document.ts [file]   write it to `file` (default: standard output)
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createCore, createMemoryStore } from '../server/src/index.js';

const ORIGIN = 'http://localhost:4000';

/** The served document's text. */
export async function servedDocument(): Promise<string> {
  const core = createCore({
    store: createMemoryStore(),
    clock: { now: () => Date.now() },
    addresses: { origin: ORIGIN, baseUrl: `${ORIGIN}/v1`, authUrl: ORIGIN, staticUrl: `${ORIGIN}/static` },
    tokenTtl: 3600,
  });
  const response = await core.fetch(new Request(`${ORIGIN}/v1/openapi.json`));
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return `${JSON.stringify(await response.json(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await servedDocument();
  const file = process.argv[2];
  if (file) await writeFile(file, text);
  else process.stdout.write(text);
}
