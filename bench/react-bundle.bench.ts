/**
 * Size of the React shop example's storefront code in the browser: the example's entry (`examples/react-shop/src/
 * main.tsx`) bundled by esbuild for browsers, minified and gzipped (-9), with React, ReactDOM, TanStack Query and
 * the offline mode's mock (msw and the server's handlers, loaded only offline) left out, as the issue counts it:
 *
 * - bindings + SDK, as the example uses them: a module re-exporting every name the example imports from
 *   `@storefront-platform/react` and `@storefront-platform/sdk` (what the budget is for);
 * - the example's whole storefront code: that, and the example's own components;
 *
 * each from the packages as built (`npm run build`, which this bench runs) and from the sources.
 *
 * Fails over the budget, or when a bundle imports a `node:` module (the bindings must run in browsers as is).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Plugin } from 'esbuild';

const BUDGET = 18 * 1024;
const repo = fileURLToPath(new URL('..', import.meta.url));
const example = `${repo}examples/react-shop/src/`;
/** What an app brings anyway, and what only the offline mode loads. */
const EXTERNAL = [
  'react',
  'react-dom',
  'react/*',
  'react-dom/*',
  '@tanstack/react-query',
  'msw',
  'msw/*',
  '@storefront-platform/server/msw',
];

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

async function bundle(options: BuildOptions, from: 'dist' | 'sources'): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    jsx: 'automatic',
    external: EXTERNAL,
    loader: { '.css': 'empty' },
    plugins: [noNodeBuiltins],
    // The repository's tsconfig maps the package names to the sources; without it they resolve as in an app.
    ...(from === 'dist' ? { tsconfigRaw: { compilerOptions: { jsx: 'react-jsx' } } } : {}),
    ...options,
  });
  const code = result.outputFiles![0]!.contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

/** The names the example imports from each package, read from its sources. */
function importedNames(): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const file of readdirSync(example).filter((name) => /\.tsx?$/.test(name))) {
    const source = readFileSync(`${example}${file}`, 'utf8');
    for (const [, list, from] of source.matchAll(
      /import\s*\{([^}]*)\}\s*from\s*'(@storefront-platform\/(?:react|sdk))'/g,
    )) {
      const set = names.get(from!) ?? new Set();
      for (const part of list!.split(',')) {
        const name = part.trim();
        if (name && !name.startsWith('type ')) set.add(name);
      }
      names.set(from!, set);
    }
  }
  return names;
}

execFileSync(
  'npm',
  ['run', 'build', '--silent', '-w', '@storefront-platform/sdk', '-w', '@storefront-platform/react'],
  {
    cwd: repo,
    stdio: 'ignore',
  },
);

const uses = [...importedNames()]
  .map(([from, names]) => `export { ${[...names].join(', ')} } from '${from}';`)
  .join('\n');
const bindings = (from: 'dist' | 'sources') =>
  bundle({ stdin: { contents: uses, resolveDir: example, loader: 'ts', sourcefile: 'uses.ts' } }, from);
const app = (from: 'dist' | 'sources') => bundle({ entryPoints: [`${example}main.tsx`] }, from);
const [bindingsDist, bindingsSources, appDist, appSources] = await Promise.all([
  bindings('dist'),
  bindings('sources'),
  app('dist'),
  app('sources'),
]);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const row = (name: string, { minified, gzipped }: { minified: number; gzipped: number }, budget?: number) =>
  console.log(
    `  ${name.padEnd(62)} ${kb(minified).padStart(9)} min  ${kb(gzipped).padStart(9)} gzip` +
      (budget ? `  (budget ${kb(budget)}, ratio ${(gzipped / budget).toFixed(2)})` : ''),
  );

console.log(
  'React shop example in the browser (esbuild, minified, gzip -9; without React, ReactDOM, TanStack, the mock)',
);
console.log(`  imports: ${uses.replace(/\n/g, '\n           ')}`);
row('bindings + SDK as the example uses them (package build)', bindingsDist, BUDGET);
row('bindings + SDK as the example uses them (sources)', bindingsSources, BUDGET);
row('example storefront code, with its components (package build)', appDist);
row('example storefront code, with its components (sources)', appSources);

let failed = false;
const fail = (message: string) => {
  console.error(`FAIL: ${message}`);
  failed = true;
};
if (nodeImports.length) fail(`node: imports in a browser bundle:\n  ${[...new Set(nodeImports)].join('\n  ')}`);
for (const [name, built] of [
  ['bindings + SDK (package build)', bindingsDist],
  ['bindings + SDK (sources)', bindingsSources],
] as const) {
  if (built.gzipped > BUDGET) fail(`${name}: ${kb(built.gzipped)} gzipped, over the ${kb(BUDGET)} budget`);
}
process.exitCode = failed ? 1 : 0;
