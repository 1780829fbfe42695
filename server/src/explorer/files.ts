/**
 * Where the explorer's files come from: `dist/explorer/`, written by the package build next to the built
 * server, or, when the server runs from its sources and there is no such folder, a bundle made in memory on
 * first use.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleExplorer, EXPLORER_FILES, type ExplorerFiles } from './bundle.js';

/** The built files beside this module once bundled into `dist/`; `undefined` when running from the sources. */
async function builtFiles(): Promise<ExplorerFiles | undefined> {
  const path = (name: string) => fileURLToPath(new URL(`./explorer/${name}`, import.meta.url));
  try {
    const texts = await Promise.all(EXPLORER_FILES.map((name) => readFile(path(name), 'utf8')));
    return Object.fromEntries(EXPLORER_FILES.map((name, i) => [name, texts[i]!])) as unknown as ExplorerFiles;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
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
