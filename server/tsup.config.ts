import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rollup } from 'rollup';
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

/** Where esbuild writes the bin before `chunkBin` chunks it anew into dist/. */
const BIN_STAGE = join(tmpdir(), `storefront-server-bin-${process.pid}`);

/**
 * The bin's second step: its chunks, as esbuild splits them, joined by Rollup into one module for everything a start
 * loads (beside the entry, which only turns on the compile cache before importing it: see `src/cli.ts`), and a chunk
 * for each thing loaded later (a subcommand, the PostgreSQL store, the control API…). esbuild
 * puts each module shared by the start and a later import into a chunk of its own (it does not know that the later
 * import runs after the start), and each module Node's ESM loader loads costs time of its own (resolving, reading,
 * linking: about half a millisecond of CPU each on Node 20); Rollup leaves what the start loaded already where it is.
 * The chunks sit beside the entries' in dist/, where `import.meta.url` finds dist/explorer.
 */
async function chunkBin(): Promise<void> {
  const bundle = await rollup({
    input: join(BIN_STAGE, 'cli.js'),
    // The bin's dependencies (the SDK, the PostgreSQL driver…) and Node's modules stay imports.
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    onwarn(warning, warn) {
      // Modules that import each other, as in the sources: ES modules allow it.
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  await bundle.write({ dir: 'dist', format: 'es', chunkFileNames: 'cli-[hash].js' });
  await bundle.close();
  await chmod('dist/cli.js', 0o755);
  await rm(BIN_STAGE, { recursive: true, force: true });
}

// tsup runs the builds in parallel, and its `clean` would let each wipe the other's files: the config clears
// dist/ once, before them all.
export default defineConfig(async () => {
  await rm('dist', { recursive: true, force: true });
  return [
    {
      ...common,
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
      // The bin, ESM only (Node runs it, never `require()`), built on its own: no app shares its process, so it
      // shares no chunks with the entries. The pure-ESM dependencies are bundled in (@noble/hashes alone is 8
      // modules); the SDK stays external, as in every build. See `chunkBin` for the second step.
      entry: { cli: 'src/cli.ts' },
      outDir: BIN_STAGE,
      target: common.target,
      platform: common.platform,
      format: 'esm',
      splitting: true,
      external: common.external,
      noExternal: ['lowdb', '@noble/hashes'],
      onSuccess: chunkBin,
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
      // What loads on first use (the contract, the seed, the control API…) is an `import()` in the sources, which
      // Jest's module system refuses in CommonJS (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG): here a `require()`.
      esbuildOptions(options) {
        options.supported = { ...options.supported, 'dynamic-import': false };
      },
    },
  ];
});
