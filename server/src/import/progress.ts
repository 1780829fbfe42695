/**
 * The progress of an import, as events, and how the command shows them: a bar redrawn in place on a terminal,
 * one line per shop otherwise (a CI log, a file), so that a log holds no control characters.
 */

/** Rows of a shop once it is read. */
export interface ShopCounts {
  products: number;
  orders: number;
  themes: number;
  templates: number;
  assets: number;
}

/** How far the import of one shop is. */
export interface ImportProgress {
  shop: { id: string; name: string };
  /** What is being read; `done` once the shop is read, with its `counts`. */
  phase: 'products' | 'orders' | 'assets' | 'done';
  done: number;
  total: number;
  counts?: ShopCounts;
}

/** Where progress is written: a stream's `write`, and whether it is a terminal. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;

/** `n` and the plural `noun` ("themes"), singular for one: "1 theme", "2 themes". */
export function rowCount(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun.replace(/s$/, '') : noun}`;
}

/** A line of a shop read: what it holds. */
export function shopLine(event: ImportProgress): string {
  const c = event.counts;
  const rows = c
    ? (['products', 'orders', 'themes', 'templates', 'assets'] as const)
        .map((name) => rowCount(c[name], name))
        .join(', ')
    : '';
  return `shop ${event.shop.id} ${event.shop.name}: ${rows}`;
}

/** The progress reporter of the command: a bar on a terminal, a line per shop otherwise. */
export function progressReporter(output: ProgressOutput): {
  onProgress: (event: ImportProgress) => void;
  /** A line of its own (a long wait), the bar cleared first. */
  note(line: string): void;
  end(): void;
} {
  let drawn = false;
  const clear = () => {
    if (drawn) output.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    onProgress(event) {
      if (event.phase === 'done') {
        clear();
        output.write(`${shopLine(event)}\n`);
        return;
      }
      if (!output.isTTY) return;
      const share = event.total === 0 ? 1 : event.done / event.total;
      const filled = Math.round(share * BAR_WIDTH);
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
      const line = `${bar} shop ${event.shop.id} ${event.phase} ${event.done}/${event.total}`;
      output.write(`\r\x1b[2K${line.slice(0, (output.columns ?? 80) - 1)}`);
      drawn = true;
    },
    note(line) {
      clear();
      output.write(`${line}\n`);
    },
    end: clear,
  };
}
