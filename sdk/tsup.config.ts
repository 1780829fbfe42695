import { rm } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';

const common = {
  entry: {
    index: 'src/index.ts',
    internal: 'src/internal.ts',
    redis: 'src/redis/index.ts',
    webhooks: 'src/webhooks/index.ts',
    // Not an export: a file of its own so that a bundler drops the JWT signer (jwt-encode, CommonJS and not marked
    // free of side effects) from apps that never call `authorized`. Inside index.js its import would be kept.
    'jwt-assertion': 'src/auth/jwt-assertion.ts',
  },
  target: 'es2022',
  // Node and browsers (the `redis` entry is for Node, but imports no Redis package itself; `webhooks` runs in both).
  platform: 'neutral',
  // Shared chunks in both formats: one module of each class (errors, `Entity`) per format across the entries.
  splitting: true,
  dts: true,
  sourcemap: true,
  treeshake: true,
} satisfies Options;

// Two builds of the same entries, one per format. tsup runs them in parallel, and its `clean` would let each wipe the
// other's files: the config clears dist/ once, before both.
export default defineConfig(async () => {
  await rm('dist', { recursive: true, force: true });
  return [
    // ESM, what bundlers and Node's `import` get: dependencies (ky, jwt-encode) stay external.
    { ...common, format: 'esm' },
    {
      ...common,
      format: 'cjs',
      // CommonJS for `require()` and Jest, whose module system cannot load an ES module from node_modules without
      // configuration: ky, ESM only, is bundled in; jwt-encode is CommonJS and stays external. The
      // types still import ky's, so that a user's own ky instance type-checks as the `ky` option.
      noExternal: ['ky'],
      // No source maps: they would double what the SDK installs (ky's sources inside the CommonJS one), for stack
      // traces that the ES build's maps already give where it matters (bundlers, browsers, Node's import).
      sourcemap: false,
      // Bundled beside the SDK's own `TimeoutError`, ky's would be renamed, and ky tells its errors from another
      // copy's (a user's ky instance) by their class name.
      keepNames: true,
    },
  ];
});
