import { rm } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';

const common = {
  entry: {
    index: 'src/index.ts',
    internal: 'src/internal.ts',
    redis: 'src/redis/index.ts',
    webhooks: 'src/webhooks/index.ts',
    assets: 'src/assets/index.ts',
  },
  target: 'es2022',
  // Node and browsers (the `redis` entry is for Node, but imports no Redis package itself; `webhooks` and `assets` run in both).
  platform: 'neutral',
  // Shared chunks in both formats: one module of each class (errors, `Entity`) per format across the entries.
  splitting: true,
  dts: true,
  // No source maps: the output is not minified (its names and structure read as the sources do), and maps carrying
  // the sources would more than double what the SDK installs, for stack traces that read as well without them.
  sourcemap: false,
  treeshake: true,
} satisfies Options;

// Two builds of the same entries, one per format. tsup runs them in parallel, and its `clean` would let each wipe the
// other's files: the config clears dist/ once, before both.
export default defineConfig(async () => {
  await rm('dist', { recursive: true, force: true });
  return [
    // ESM, what bundlers and Node's `import` get: its dependency (ky) stays external.
    { ...common, format: 'esm' },
    {
      ...common,
      format: 'cjs',
      // CommonJS for `require()` and Jest, whose module system cannot load an ES module from node_modules without
      // configuration: ky, ESM only, is bundled in. The
      // types still import ky's, so that a user's own ky instance type-checks as the `ky` option.
      noExternal: ['ky'],
      // Bundled beside the SDK's own `TimeoutError`, ky's would be renamed, and ky tells its errors from another
      // copy's (a user's ky instance) by their class name.
      keepNames: true,
    },
  ];
});
