import { defineConfig } from 'tsup';

// The library entry and the bin in one build, sharing chunks. @storefront-platform/sdk and the other dependencies stay
// external: the package uses the app's @storefront-platform/sdk, one copy of it.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  dts: {
    entry: { index: 'src/index.ts' },
    // Types of @storefront-platform/sdk come from its built declarations, not the workspace sources the root tsconfig maps.
    compilerOptions: { paths: {} },
  },
  sourcemap: true,
  clean: true,
  treeshake: true,
});
