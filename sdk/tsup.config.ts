import { defineConfig } from 'tsup';

// Platform-neutral ESM for Node and browsers; dependencies (ky, uri-template, jwt-encode) stay external.
export default defineConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts' },
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  splitting: true,
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
});
