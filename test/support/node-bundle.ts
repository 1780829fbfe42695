/**
 * A TypeScript script that tests start as processes, bundled by esbuild into one ES module for plain `node`. The
 * workspace's packages resolve to their sources through the root tsconfig's `paths`, which esbuild reads, as tsx
 * resolves them; other packages stay imports of the repository's node_modules. A process then starts in a fraction
 * of the time (and CPU) that tsx takes to compile the SDK's sources again in each one.
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Where the bundles go: inside the repository, so that their imports find its node_modules. */
const CACHE = new URL('../../node_modules/.cache/storefront-tests/', import.meta.url);

/** Bundles `entry` and returns the path of the module to run with `node`; a file of this process's own. */
export async function bundleForNode(entry: URL): Promise<string> {
  const source = fileURLToPath(entry);
  const outfile = fileURLToPath(new URL(`${basename(source, '.ts')}-${process.pid}.mjs`, CACHE));
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return outfile;
}
