/**
 * Builds the explorer page from its sources with esbuild: one minified script with the SDK and its
 * dependencies inside, one stylesheet, the HTML, and the chunks the script imports later (the code editor,
 * CodeMirror, loaded only when an edit dialog opens). The package build writes them to `dist/explorer/`; a server
 * run from the sources (`npm start`) bundles them in memory instead, so that no build step comes first.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The explorer page's files, by name as served under `/explorer/`: `index.html`, `explorer.js`, `explorer.css`
 * (see {@link INITIAL_FILES}) and the lazily imported chunks, named `{name}-{hash}.js`.
 */
export type ExplorerFiles = Record<string, string>;

/** The files a browser loads with the page; the other files are chunks imported later. */
export const INITIAL_FILES = ['index.html', 'explorer.js', 'explorer.css'] as const;

/** Whether `name` is a file of the explorer (as built), so that the server reads and serves nothing else. */
export function isExplorerFile(name: string): boolean {
  return (INITIAL_FILES as readonly string[]).includes(name) || /^[\w-]+\.js$/.test(name);
}

const page = (name: string) => fileURLToPath(new URL(`./page/${name}`, import.meta.url));

/** The explorer bundled from `page/`; esbuild is a development dependency, loaded only when this runs. */
export async function bundleExplorer(): Promise<ExplorerFiles> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [
      { in: page('main.ts'), out: 'explorer' },
      { in: page('explorer.css'), out: 'explorer' },
    ],
    // Only names the outputs: nothing is written.
    outdir: 'explorer',
    write: false,
    bundle: true,
    minify: true,
    // The code editor is an `import()`: its own chunk, fetched when the first edit dialog opens.
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const files: ExplorerFiles = { 'index.html': await readFile(page('index.html'), 'utf8') };
  for (const file of result.outputFiles) files[basename(file.path)] = file.text;
  return files;
}
