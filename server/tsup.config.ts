import { defineConfig } from 'tsup';

// One build for every entry so that modules shared by `storefront-server` and `storefront-server/msw` (the seed,
// the core) land in shared chunks and keep one identity. `storefront-sdk` is a dependency, imported at run time
// through its public entries, never bundled: the server and the app then share one copy of the contract.
export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'neutral',
  splitting: true,
  dts: {
    entry: { index: 'src/index.ts', msw: 'src/msw/index.ts' },
    // Types of storefront-sdk come from its built declarations, not the workspace sources the root tsconfig maps.
    compilerOptions: { paths: {} },
  },
  sourcemap: true,
  clean: true,
  treeshake: true,
  external: [/^node:/],
});
