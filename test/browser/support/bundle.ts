/**
 * A test page's script as one ES module for browsers, bundled by esbuild. Package names (`@storefront-platform/sdk`,
 * `@storefront-platform/server/msw`) resolve to the workspace sources through the root tsconfig's `paths`, which esbuild
 * reads; a `node:` import fails the build, as it would fail in a browser.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export async function bundlePage(entry: URL): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
