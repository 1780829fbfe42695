/**
 * What an import has fetched so far, kept in its staging directory (`DIR.partial/`) so that an import cut short
 * (killed, a network failure) continues where it stopped when run again: the rows that cost a request each
 * (products and orders in detail, asset bytes), appended as JSON lines as each batch arrives. A line cut by a
 * kill is ignored. The rows are the source's own, as read, and never hold a credential; the source's URL is
 * kept beside them so that another source starts afresh.
 */
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AssetFileRow, OrderRow, ProductRow } from '../store/types.js';

/** The rows an import keeps to resume, by kind. */
export interface ResumableRows {
  products: ProductRow;
  orders: OrderRow;
  /** Asset bytes with the digest they were checked against. */
  files: AssetFileRow & { digest: string };
}

/** One fetched row, as a line of the state file. */
export type ResumeEntry = { [K in keyof ResumableRows]: { kind: K; row: ResumableRows[K] } }[keyof ResumableRows];

const STATE_FILE = 'fetched.jsonl';
const SOURCE_FILE = 'source.json';

/** The fetched rows of an import in progress, in its staging directory. */
export class ResumeState {
  readonly #rows: { [K in keyof ResumableRows]: Map<string, ResumableRows[K]> } = {
    products: new Map(),
    orders: new Map(),
    files: new Map(),
  };
  /** Rows read back from an earlier run. */
  resumed = 0;
  /**
   * The source to write down with the first rows: a fresh start makes its directory then, so that a run that
   * fails before fetching anything (a refused sign-in, an unknown shop) leaves nothing behind.
   */
  #unsaved: string | undefined;

  private constructor(readonly dir: string) {}

  /**
   * The state in `dir`: what an earlier run of the import from `source` fetched, or a fresh start (the directory
   * removed, made again with the first rows) when there was none or it was of another source.
   */
  static async open(dir: string, source: string): Promise<ResumeState> {
    const state = new ResumeState(dir);
    const recorded = await readFile(join(dir, SOURCE_FILE), 'utf8').catch(() => undefined);
    let same = false;
    try {
      same = recorded !== undefined && (JSON.parse(recorded) as { source?: unknown }).source === source;
    } catch {
      // A source file cut by a kill: start afresh.
    }
    if (!same) {
      await rm(dir, { recursive: true, force: true });
      state.#unsaved = source;
      return state;
    }
    const text = await readFile(join(dir, STATE_FILE), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      let entry: ResumeEntry;
      try {
        entry = JSON.parse(line) as ResumeEntry;
      } catch {
        continue;
      }
      const rows = state.#rows[entry?.kind] as Map<string, unknown> | undefined;
      if (!rows || typeof entry.row?.id !== 'string') continue;
      rows.set(entry.row.id, entry.row);
      state.resumed++;
    }
    return state;
  }

  /** The row of `kind` with `id` fetched earlier, if any. */
  get<K extends keyof ResumableRows>(kind: K, id: string): ResumableRows[K] | undefined {
    return this.#rows[kind].get(id) as ResumableRows[K] | undefined;
  }

  /** Records `entries`, fetched now. */
  async add(entries: readonly ResumeEntry[]): Promise<void> {
    if (entries.length === 0) return;
    for (const entry of entries) (this.#rows[entry.kind] as Map<string, unknown>).set(entry.row.id, entry.row);
    if (this.#unsaved !== undefined) {
      await mkdir(this.dir, { recursive: true });
      await writeFile(join(this.dir, SOURCE_FILE), `${JSON.stringify({ source: this.#unsaved })}\n`);
      this.#unsaved = undefined;
    }
    await appendFile(join(this.dir, STATE_FILE), entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  }

  /** Removes the staging directory: the import is done. */
  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
