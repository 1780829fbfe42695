/**
 * The `@storefront-platform/server/msw` entry runs under `setupWorker` in browsers: bundled by esbuild for the browser, it
 * must pull in no Node built-in and none of the server shell's packages.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const entry = fileURLToPath(new URL('../../src/msw/index.ts', import.meta.url));
const FORBIDDEN = /^(node:|express$|express\/|lowdb|compression$|steno)/;
const NODE_BUILTINS = new Set(['fs', 'path', 'http', 'https', 'net', 'crypto', 'stream', 'zlib', 'url', 'os', 'util']);

test('the MSW entry bundles for browsers without node:, Express, lowdb or compression', async () => {
  const imported: string[] = [];
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The app brings msw itself (an optional peer dependency).
    external: ['msw'],
    plugins: [
      {
        name: 'record-forbidden',
        setup(builder) {
          builder.onResolve({ filter: /.*/ }, (args) => {
            if (FORBIDDEN.test(args.path) || NODE_BUILTINS.has(args.path)) {
              imported.push(`${args.path} <- ${args.importer}`);
              return { path: args.path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  });
  expect(imported).toEqual([]);
  const inputs = Object.keys(result.metafile.inputs);
  // The bundle really is the server core (not an empty shell), and msw stays the app's.
  expect(inputs.some((input) => input.endsWith('server/src/core/index.ts'))).toBe(true);
  expect(inputs.some((input) => input.includes('node_modules/msw/'))).toBe(false);
  const imports = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]!]!.imports.map((i) => i.path);
  expect(new Set(imports)).toEqual(new Set(['msw']));
});
