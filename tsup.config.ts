import { defineConfig } from 'tsup';

// One build for every entry point so that shared modules (errors, contract) land in shared chunks
// and keep a single identity across `storefront-sdk`, `storefront-sdk/server` and `storefront-sdk/msw`.
export default defineConfig({
  entry: {
    sdk: 'sdk/src/index.ts',
    server: 'server/src/index.ts',
    msw: 'server/src/msw/index.ts',
    cli: 'server/src/cli.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'neutral',
  splitting: true,
  dts: { entry: { sdk: 'sdk/src/index.ts', server: 'server/src/index.ts', msw: 'server/src/msw/index.ts' } },
  sourcemap: true,
  clean: true,
  treeshake: true,
  external: ['express', 'lowdb', 'msw', /^node:/],
});
