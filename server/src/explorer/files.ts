/**
 * Where the explorer's files come from: `dist/explorer/`, written by the package build next to the built
 * server, or, when the server runs from its sources and there is no such folder, a bundle made in memory on
 * first use.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleExplorer, type ExplorerFiles, isExplorerFile } from './bundle.js';

/** The built files beside this module once bundled into `dist/`; `undefined` when running from the sources. */
async function builtFiles(): Promise<ExplorerFiles | undefined> {
  const dir = fileURLToPath(new URL('./explorer/', import.meta.url));
  let names: string[];
  try {
    // The page's script names its chunks by their hash: the folder lists them.
    names = (await readdir(dir)).filter(isExplorerFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!names.includes('explorer.js')) return undefined;
  const texts = await Promise.all(names.map((name) => readFile(`${dir}${name}`, 'utf8')));
  return Object.fromEntries(names.map((name, i) => [name, texts[i]!]));
}

let loading: Promise<ExplorerFiles> | undefined;

/** The explorer's files, read or bundled once per process. */
export function explorerFiles(): Promise<ExplorerFiles> {
  loading ??= builtFiles().then((built) => built ?? bundleExplorer());
  // A failed bundle (a syntax error while editing the sources) is tried again on the next request.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
