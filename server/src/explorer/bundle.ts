/**
 * Builds the explorer page from its sources with esbuild: one minified script with the SDK and its
 * dependencies inside, one stylesheet, the HTML. The package build writes it to `dist/explorer/`; a server run
 * from the sources (`npm start`) bundles it in memory instead, so that no build step comes first.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The explorer page's files, by name as served under `/explorer/`. */
export interface ExplorerFiles {
  'index.html': string;
  'explorer.js': string;
  'explorer.css': string;
}

/** Names of the explorer's files. */
export const EXPLORER_FILES = ['index.html', 'explorer.js', 'explorer.css'] as const satisfies (keyof ExplorerFiles)[];

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
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const output = (ext: string) => result.outputFiles.find((file) => file.path.endsWith(`explorer${ext}`))!.text;
  return {
    'index.html': await readFile(page('index.html'), 'utf8'),
    'explorer.js': output('.js'),
    'explorer.css': output('.css'),
  };
}
