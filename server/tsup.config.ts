import { mkdir, writeFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';
import { bundleExplorer } from './src/explorer/bundle.js';

// One build for every entry so that modules shared by `@storefront-platform/server` and `@storefront-platform/server/msw` (the seed,
// the core) land in shared chunks and keep one identity. `@storefront-platform/sdk` is a dependency, imported at run time
// through its public entries, never bundled: the server and the app then share one copy of the contract.
export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'neutral',
  splitting: true,
  dts: {
    entry: { index: 'src/index.ts', msw: 'src/msw/index.ts' },
    // Types of @storefront-platform/sdk come from its built declarations, not the workspace sources the root tsconfig maps.
    compilerOptions: { paths: {} },
  },
  sourcemap: true,
  clean: true,
  treeshake: true,
  // esbuild bundles the explorer when the server runs from its sources; the built server reads dist/explorer.
  external: [/^node:/, 'esbuild'],
  // The API explorer, a browser page with the SDK inside, built by the same function a server run from its
  // sources uses (so there is one definition of it), into dist/explorer/ where the built server looks for it.
  async onSuccess() {
    const files = await bundleExplorer();
    await mkdir('dist/explorer', { recursive: true });
    await Promise.all(Object.entries(files).map(([name, text]) => writeFile(`dist/explorer/${name}`, text)));
  },
});
