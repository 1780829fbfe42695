/**
 * What the API explorer page costs a browser to download: its script and stylesheet as the package ships them
 * (minified, the SDK and its dependencies inside), gzipped at level 9, and apart from them the chunks loaded
 * later (the code editor, CodeMirror, fetched when an edit dialog first opens). Shared by the bench that prints
 * it and the test that holds the page's first load to its budget.
 */
import { gzipSync } from 'node:zlib';
import { bundleExplorer, INITIAL_FILES } from '../server/src/explorer/bundle.js';

/** The budget of the page's JavaScript and CSS together, minified and gzipped, as the page first loads. */
export const EXPLORER_BUDGET = 60 * 1024;

/** Bytes of one file of the page. */
export interface FileWeight {
  name: string;
  minified: number;
  gzipped: number;
  /** Loaded with the page (else: a chunk imported later). */
  initial: boolean;
}

export interface ExplorerWeight {
  files: FileWeight[];
  /** JavaScript and CSS of the first load, gzipped: what the budget counts. */
  gzipped: number;
  /** The chunks loaded later, gzipped. */
  lazyGzipped: number;
}

/** Chunks the page's script imports statically (`from"./x.js"`): loaded with the page too. */
function staticImports(script: string): string[] {
  return [...script.matchAll(/(?:from|import)\s*["']\.\/([\w-]+\.js)["']/g)].map((match) => match[1]!);
}

export async function explorerWeight(): Promise<ExplorerWeight> {
  const bundle = await bundleExplorer();
  const initial = new Set<string>([...INITIAL_FILES, ...staticImports(bundle['explorer.js'] ?? '')]);
  const files = Object.entries(bundle).map(([name, text]) => {
    const bytes = Buffer.from(text);
    return { name, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length, initial: initial.has(name) };
  });
  const sum = (list: FileWeight[]) => list.reduce((total, file) => total + file.gzipped, 0);
  return {
    files,
    gzipped: sum(files.filter((file) => file.initial && file.name !== 'index.html')),
    lazyGzipped: sum(files.filter((file) => !file.initial)),
  };
}
