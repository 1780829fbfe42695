/**
 * What the API explorer page costs a browser to download: its script and stylesheet as the package ships them
 * (minified, the SDK and its dependencies inside), gzipped at level 9. Shared by the bench that prints it and
 * the test that holds it to its budget.
 */
import { gzipSync } from 'node:zlib';
import { bundleExplorer, EXPLORER_FILES } from '../server/src/explorer/bundle.js';

/** The budget of the page's JavaScript and CSS together, minified and gzipped. */
export const EXPLORER_BUDGET = 60 * 1024;

/** Bytes of one file of the page. */
export interface FileWeight {
  name: string;
  minified: number;
  gzipped: number;
}

export interface ExplorerWeight {
  files: FileWeight[];
  /** JavaScript and CSS, gzipped: what the budget counts. */
  gzipped: number;
}

export async function explorerWeight(): Promise<ExplorerWeight> {
  const bundle = await bundleExplorer();
  const files = EXPLORER_FILES.map((name) => {
    const bytes = Buffer.from(bundle[name]);
    return { name, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
  });
  const counted = files.filter((file) => file.name !== 'index.html');
  return { files, gzipped: counted.reduce((sum, file) => sum + file.gzipped, 0) };
}
