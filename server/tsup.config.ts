import { mkdir, rm, writeFile } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';
import { bundleExplorer } from './src/explorer/bundle.js';

// Each format is one build of every entry, so that modules shared by `@storefront-platform/server` and
// `@storefront-platform/server/msw` (the seed, the core) land in shared chunks and keep one identity per format.
// `@storefront-platform/sdk` is a dependency, imported at run time through its public entries (its ESM from the ESM
// build, its CommonJS from the CommonJS build), never bundled: the server and the app then share one copy of the
// contract.
const entry = { index: 'src/index.ts', msw: 'src/msw/index.ts' };
const common = {
  entry,
  target: 'node20',
  platform: 'neutral',
  splitting: true,
  dts: {
    entry,
    // Types of @storefront-platform/sdk come from its built declarations, not the workspace sources the root tsconfig maps.
    compilerOptions: { paths: {} },
  },
  sourcemap: true,
  treeshake: true,
  // esbuild bundles the explorer when the server runs from its sources; the built server reads dist/explorer.
  external: [/^node:/, 'esbuild'],
} satisfies Options;

// tsup runs the two builds in parallel, and its `clean` would let each wipe the other's files: the config clears
// dist/ once, before both.
export default defineConfig(async () => {
  await rm('dist', { recursive: true, force: true });
  return [
    {
      ...common,
      // The bin is ESM only: Node runs it, never `require()`.
      entry: { ...entry, cli: 'src/cli.ts' },
      format: 'esm',
      // The API explorer, a browser page with the SDK inside, built by the same function a server run from its
      // sources uses (so there is one definition of it), into dist/explorer/ where the built server (either
      // format) looks for it.
      async onSuccess() {
        const files = await bundleExplorer();
        await mkdir('dist/explorer', { recursive: true });
        await Promise.all(Object.entries(files).map(([name, text]) => writeFile(`dist/explorer/${name}`, text)));
      },
    },
    {
      ...common,
      format: 'cjs',
      // CommonJS for `require()` and Jest, whose module system cannot load an ES module from node_modules without
      // configuration: the dependencies published as ESM only are bundled in (lowdb brings steno). Express, msw and
      // the SDK are CommonJS-loadable and stay external, msw above all: handlers must come from the app's own msw.
      noExternal: ['jose', 'lowdb', '@noble/hashes'],
      // `import.meta.url` (where dist/explorer is) from `__filename`.
      shims: true,
      // Bundled code keeps its class and function names (error names are compared across copies).
      keepNames: true,
    },
  ];
});
