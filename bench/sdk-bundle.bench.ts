/**
 * Size of the SDK in a browser app: `sdk/src/index.ts` bundled by esbuild for browsers (minified, every
 * dependency included, ky among them), then gzipped. Fails when the gzip size passes the budget or when anything
 * in the bundle imports a `node:` module (the SDK must run in browsers as is).
 */
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

// 14.3 KB before the transport moved onto ky, which brings about 5 KB.
const BUDGET = 20 * 1024;
const entry = new URL('../sdk/src/index.ts', import.meta.url).pathname;

const nodeImports: string[] = [];
const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(builder) {
    builder.onResolve({ filter: /^node:/ }, (args) => {
      nodeImports.push(`${args.path} (imported by ${args.importer})`);
      return { path: args.path, external: true };
    });
  },
};

const result = await build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  write: false,
  metafile: true,
  logLevel: 'silent',
  plugins: [noNodeBuiltins],
});

const code = result.outputFiles[0]!.contents;
const gzipped = gzipSync(code, { level: 9 }).length;

// Where the bytes come from: the SDK's own folders and each package.
const parts = new Map<string, number>();
for (const output of Object.values(result.metafile.outputs)) {
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    const key = pkg ? `package ${pkg}` : `sdk/src/${/sdk\/src\/([^/]+)\//.exec(input)?.[1] ?? '(root files)'}`;
    parts.set(key, (parts.get(key) ?? 0) + bytesInOutput);
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
console.log('SDK browser bundle (esbuild, minified, platform browser, all dependencies bundled)');
for (const [part, bytes] of [...parts].sort((a, b) => b[1] - a[1]))
  console.log(`  ${part.padEnd(28)} ${kb(bytes)} minified`);
console.log(`  total minified              ${kb(code.length)}`);
console.log(
  `  total gzip -9               ${kb(gzipped)}  (budget ${kb(BUDGET)}, ratio ${(gzipped / BUDGET).toFixed(2)})`,
);

let failed = false;
if (nodeImports.length) {
  console.error(`FAIL: node: imports in the browser bundle:\n  ${nodeImports.join('\n  ')}`);
  failed = true;
}
if (gzipped > BUDGET) {
  console.error(`FAIL: ${kb(gzipped)} gzipped is over the ${kb(BUDGET)} budget`);
  failed = true;
}
process.exitCode = failed ? 1 : 0;
