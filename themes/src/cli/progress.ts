/**
 * A one-line progress bar for transfers of many files, redrawn in place on a terminal. Node's readline cursor
 * helpers are all it takes; where the stream is not a terminal (a log, a pipe) nothing is drawn.
 */
import { clearLine, cursorTo } from 'node:readline';

export interface Progress {
  /** Whether a bar is drawn (then the per-file lines can be left out). */
  readonly visible: boolean;
  /** One more file done; `path` is shown beside the bar. */
  tick(done: number, total: number, path: string): void;
  /** Removes the bar, leaving the line empty for what follows. */
  stop(): void;
}

/** What shows no progress. */
export const NO_PROGRESS: Progress = { visible: false, tick() {}, stop() {} };
/** Redraws at most this often: a fast transfer must not spend its time drawing. */
const FRAME_MS = 50;

export function progressBar(stream: NodeJS.WriteStream, label: string): Progress {
  if (!stream.isTTY) return NO_PROGRESS;
  let drawn = 0;
  return {
    visible: true,
    tick(done, total, path) {
      const now = performance.now();
      if (done < total && now - drawn < FRAME_MS) return;
      drawn = now;
      const width = 24;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      const text = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${path}`;
      cursorTo(stream, 0);
      stream.write(text.slice(0, Math.max(0, (stream.columns || 80) - 1)));
      clearLine(stream, 1);
    },
    stop() {
      if (!drawn) return;
      cursorTo(stream, 0);
      clearLine(stream, 0);
    },
  };
}
