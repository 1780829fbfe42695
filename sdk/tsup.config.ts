import { defineConfig } from 'tsup';

// Platform-neutral ESM for Node and browsers (the `redis` entry is for Node, but imports no Redis package itself);
// dependencies (ky, uri-template, jwt-encode) stay external.
export default defineConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts', redis: 'src/redis/index.ts' },
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  splitting: true,
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
});
