import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  // ESM for bundlers and Node's import; CommonJS for require() and Jest, as the SDK ships.
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  dts: {
    // Types of @storefront-platform/sdk come from its built declarations (the workspace builds it first), not the
    // workspace sources the root tsconfig maps.
    compilerOptions: { paths: {} },
  },
  sourcemap: true,
  clean: true,
  treeshake: true,
  // React, TanStack Query and the SDK are the app's: one copy of each (React's context and the SDK's classes need it).
  external: ['react', '@tanstack/react-query', '@storefront-platform/sdk'],
});
