import { rm } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';

// @storefront-platform/sdk and the other dependencies stay external: the package uses the app's
// @storefront-platform/sdk, one copy of it per module system.
const common = {
  target: 'node20',
  platform: 'node',
  splitting: true,
  dts: {
    entry: { index: 'src/index.ts' },
    // Types of @storefront-platform/sdk come from its built declarations, not the workspace sources the root tsconfig maps.
    compilerOptions: { paths: {} },
  },
  sourcemap: true,
  treeshake: true,
} satisfies Options;

// tsup runs the two builds in parallel, and its `clean` would let each wipe the other's files: the config clears
// dist/ once, before both.
export default defineConfig(async (): Promise<Options[]> => {
  await rm('dist', { recursive: true, force: true });
  return [
    // The library entry and the bin, sharing chunks.
    { ...common, entry: { index: 'src/index.ts', cli: 'src/cli.ts' }, format: 'esm' },
    {
      ...common,
      // The library for CommonJS apps (and Jest): it tells the SDK's errors apart with `instanceof`, so a CommonJS
      // app's client (the SDK's CommonJS build) needs this build, which requires that same SDK; the ESM one, loaded
      // through require(esm), would import the SDK's ESM classes instead. The bin is ESM only.
      entry: { index: 'src/index.ts' },
      format: 'cjs',
      // chokidar 5 (and its readdirp) are ESM only: bundled in, as nothing outside this package sees them.
      noExternal: ['chokidar'],
      keepNames: true,
    },
  ];
});
