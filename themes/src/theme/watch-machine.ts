/**
 * The states of `watch` and their transitions, apart from the folder, the timers and the server: the driver
 * (watch.ts) tells the machine what happened, and the machine answers with what to do, so that each transition can be
 * tested on its own.
 */
import type { ThemeFileId } from './layout.js';
import type { FileResult } from './results.js';
import type { Workspace } from './workspace.js';

/**
 * What `watch` reports as it goes. `retrying`: the client sends a request of the file again after `delay` ms (its
 * retry policy at work; `attempt` is the one that failed). `failed`: the file was not sent. When `kept`, the network
 * or the server failed it after what retries the client's policy allows (none for a POST): it waits, `waiting` files
 * in all, for the next save of any file, and for one attempt on its own in `retryIn` ms when that is set. Otherwise
 * the server refused the file itself, or the login: it goes again once saved again. `ignored`: the path is a
 * symbolic link, or lies in a linked folder; it is never followed, so nothing of it is sent (and a file replaced by
 * one is not deleted); or the file is over the API's size limit, or its name is one the API refuses, and is not
 * sent; or a new file is named as another of the theme or the folder but for case, and not created. `unchanged`:
 * the file as saved is as the theme holds it, nothing was sent (a save that undid itself, a refused file deleted
 * before the server ever took it). `pulled`: a file changed on the server was written into the folder (or removed),
 * the folder's copy being unchanged; `checked`: the server was asked for the theme's changes (`unchanged`: it answered
 * 304); `unreachable`: that question failed, it is asked again at the next interval. The machine reports none of
 * these three: the server's side of the watch (watch-pull.ts) does.
 */
export type WatchEvent =
  | { type: 'ready'; workspace: Workspace; preview: string; unpushed: number }
  | { type: 'ignored'; path: string; reason: string }
  | { type: 'unchanged'; path: string }
  | { type: 'pushed'; file: FileResult; ms: number }
  | { type: 'conflict'; file: FileResult }
  | { type: 'retrying'; path: string; error: unknown; attempt: number; delay: number }
  | { type: 'failed'; path: string; error: unknown; kept: boolean; waiting: number; retryIn?: number }
  | { type: 'pulled'; file: FileResult }
  | { type: 'checked'; unchanged: boolean }
  | { type: 'unreachable'; error: unknown };

/**
 * Where one file stands. A file in none of these states is idle: not saved since the watch began, or its last save
 * dealt with (sent, reported as a conflict or as refused, ignored as a link); its next save starts it over, so a
 * conflict or a refusal needs no state of its own. `settling` beside another phase: saved again since, and that save
 * is waiting for its quiet time.
 */
export type FileState =
  /** Saved, waiting for a quiet time without another save (an editor's save is often several writes). */
  | { phase: 'settling' }
  /** Its saves settled: it waits for its turn, files going one at a time in the order they settled. */
  | { phase: 'queued'; settling: boolean }
  /** Its request in flight. `queued`: a newer save settled meanwhile and goes after this one. */
  | { phase: 'sending'; settling: boolean; queued: boolean }
  /** The network or the server failed it: it goes with the next save of any file, or in the retry on its own. */
  | { phase: 'kept'; settling: boolean };

/**
 * The attempt at kept files on their own, which only a save earns, so that an outage costs a few requests per save
 * however long it lasts: `unearned` (no save settled since the last attempt), `earned`, or `scheduled` (its wait
 * running).
 */
export type RetryState = 'unearned' | 'earned' | 'scheduled';

/**
 * What a transition asks the driver to do, in order. `settle`: (re)start the file's quiet time, then call
 * {@link WatchMachine.settled}. `send`: send the file as it is now, then call {@link WatchMachine.sent} with the
 * outcome. `retry`: (re)start the wait before the kept files go on their own, then call
 * {@link WatchMachine.retryDue}. `report`: pass the event on.
 */
export type WatchEffect =
  | { type: 'settle'; path: string; ms: number }
  | { type: 'send'; file: ThemeFileId }
  | { type: 'retry'; ms: number }
  | { type: 'report'; event: WatchEvent };

/**
 * How the sending of a file ended. `answered`: the server took or refused the file, `ms` after the sending began;
 * `unchanged`: the file is as the theme holds it, nothing was sent; `ignored`: a symbolic link, in a linked
 * folder, over the API's size limit or under a name the API refuses (`reason` says which); `refused`: an error about the file itself or the login, which another try would
 * meet again; `unreachable`: the network or the server failed it after the client's retries, or the watch stopped
 * it, and `retryAfter` is the wait in ms the server asked for, if it did.
 */
export type SendOutcome =
  | { type: 'answered'; files: readonly FileResult[]; ms: number }
  | { type: 'unchanged' }
  | { type: 'ignored'; reason: string }
  | { type: 'refused'; error: unknown }
  | { type: 'unreachable'; error: unknown; retryAfter?: number };

/** The timings of a {@link WatchMachine}, ms. */
export interface WatchTimings {
  /** Quiet time after a file's last save before it is sent. */
  debounce: number;
  /** Least wait before the kept files go on their own; longer when the server asks for longer. */
  retryDelay: number;
}

/** A retry the client announces (its `retry` event): `attempt` is the one that failed, `delay` the wait, ms. */
export interface ClientRetry {
  attempt: number;
  delay: number;
  error: unknown;
}

/** The watch as a state machine: its phase (`running`, then `stopping`), each file's state and the retry's. */
export class WatchMachine {
  #phase: 'running' | 'stopping' = 'running';
  #retry: RetryState = 'unearned';
  /**
   * Every file not idle. Files go in the order they entered the line (queued or kept), which is this map's order:
   * a file entering the line is moved to its end.
   */
  readonly #files = new Map<string, { file: ThemeFileId; state: FileState }>();
  readonly #timings: WatchTimings;

  constructor(timings: WatchTimings) {
    this.#timings = timings;
  }

  /** `running` until {@link stop}; `stopping` then: saves are ignored and no file is sent any more. */
  get phase(): 'running' | 'stopping' {
    return this.#phase;
  }

  get retry(): RetryState {
    return this.#retry;
  }

  /** Where `path` stands. */
  stateOf(path: string): FileState | { phase: 'idle' } {
    return this.#files.get(path)?.state ?? { phase: 'idle' };
  }

  /** The file whose request is in flight, if any. */
  get sending(): string | undefined {
    return this.#paths('sending')[0];
  }

  /** The files saved but not sent, by path: every file not idle once nothing is in flight. */
  unsent(): string[] {
    return [...this.#files.keys()].sort();
  }

  /** A file was saved, added or deleted. */
  saved(file: ThemeFileId): WatchEffect[] {
    if (this.#phase === 'stopping') return [];
    const entry = this.#files.get(file.path);
    const state = entry?.state;
    this.#files.set(file.path, {
      file,
      state: !state || state.phase === 'settling' ? { phase: 'settling' } : { ...state, settling: true },
    });
    return [{ type: 'settle', path: file.path, ms: this.#timings.debounce }];
  }

  /** The quiet time of `path` ended: it joins the line, the kept files after it, and the first in line goes. */
  settled(path: string): WatchEffect[] {
    const entry = this.#files.get(path);
    if (!entry) return [];
    const { state } = entry;
    if (state.phase === 'queued') this.#set(path, { phase: 'queued', settling: false });
    else if (state.phase === 'sending') this.#enter(path, { phase: 'sending', settling: false, queued: true });
    else this.#enter(path, { phase: 'queued', settling: false });
    if (this.#retry === 'unearned') this.#retry = 'earned';
    this.#release();
    return this.#next();
  }

  /** The request of `path` ended with `outcome`: reports it, keeps the file if it may go later, sends the next. */
  sent(path: string, outcome: SendOutcome): WatchEffect[] {
    const state = this.#files.get(path)?.state;
    if (state?.phase !== 'sending') return [];
    const { settling, queued } = state;
    if (outcome.type === 'unreachable') return [...this.#keep(path, settling, outcome), ...this.#next()];
    if (queued) this.#set(path, { phase: 'queued', settling });
    else if (settling) this.#set(path, { phase: 'settling' });
    else this.#files.delete(path);
    const reports: WatchEvent[] = [];
    const refused = (error: unknown) =>
      reports.push({ type: 'failed', path, error, kept: false, waiting: this.#paths('kept').length });
    if (outcome.type === 'ignored') reports.push({ type: 'ignored', path, reason: outcome.reason });
    else if (outcome.type === 'unchanged') reports.push({ type: 'unchanged', path });
    else if (outcome.type === 'refused') refused(outcome.error);
    else if (outcome.type === 'answered') {
      for (const file of outcome.files) {
        if (file.action === 'conflict') reports.push({ type: 'conflict', file });
        else if (file.action === 'failed') refused(new Error(file.message));
        else if (file.action === 'skipped') {
          reports.push({ type: 'ignored', path: file.path, reason: `${file.path}: ${file.message}` });
        } else reports.push({ type: 'pushed', file, ms: outcome.ms });
      }
    }
    return [...reports.map((event) => ({ type: 'report' as const, event })), ...this.#next()];
  }

  /** The wait before the kept files go on their own ended: they go, and the next one needs another save. */
  retryDue(): WatchEffect[] {
    this.#retry = 'unearned';
    this.#release();
    return this.#next();
  }

  /** The client announced a retry: it is the file in flight's. */
  retrying({ attempt, delay, error }: ClientRetry): WatchEffect[] {
    const path = this.sending;
    return path ? [{ type: 'report', event: { type: 'retrying', path, error, attempt, delay } }] : [];
  }

  /** The watch stops: the request in flight may end, no other starts. */
  stop(): void {
    this.#phase = 'stopping';
  }

  /**
   * Keeps `path`, whose request failed, and the files in line after it (they would fail alike), and says when they go
   * again: with the next save, and on their own once a save earned it. `settling`: `path` was saved again since.
   */
  #keep(
    path: string,
    settling: boolean,
    { error, retryAfter }: { error: unknown; retryAfter?: number },
  ): WatchEffect[] {
    this.#enter(path, { phase: 'kept', settling });
    for (const other of this.#paths('queued')) this.#enter(other, { phase: 'kept', settling: this.#settling(other) });
    if (this.#phase === 'stopping') return [];
    const event = { type: 'failed', path, error, kept: true, waiting: this.#paths('kept').length } as const;
    if (this.#retry === 'unearned') return [{ type: 'report', event }];
    const retryIn = Math.max(this.#timings.retryDelay, retryAfter ?? 0);
    this.#retry = 'scheduled';
    return [
      { type: 'retry', ms: retryIn },
      { type: 'report', event: { ...event, retryIn } },
    ];
  }

  /** The kept files join the line, in the order they were kept. */
  #release(): void {
    for (const path of this.#paths('kept')) this.#enter(path, { phase: 'queued', settling: this.#settling(path) });
  }

  /** Sends the first file in line, unless one is in flight or the watch stops. */
  #next(): WatchEffect[] {
    if (this.#phase === 'stopping' || this.sending) return [];
    const path = this.#paths('queued')[0];
    if (path === undefined) return [];
    this.#set(path, { phase: 'sending', settling: this.#settling(path), queued: false });
    return [{ type: 'send', file: this.#files.get(path)!.file }];
  }

  /** The files in `phase`, in line order. */
  #paths(phase: FileState['phase']): string[] {
    return [...this.#files].filter(([, { state }]) => state.phase === phase).map(([path]) => path);
  }

  /** Sets the state of a file in place, keeping its place in line. */
  #set(path: string, state: FileState): void {
    const { file } = this.#files.get(path)!;
    this.#files.set(path, { file, state });
  }

  /** Whether a save of `path` is waiting for its quiet time. */
  #settling(path: string): boolean {
    const state = this.#files.get(path)?.state;
    return state?.phase === 'settling' || (state !== undefined && 'settling' in state && state.settling);
  }

  /** Moves a file to the end of the line, in `state`. */
  #enter(path: string, state: FileState): void {
    const { file } = this.#files.get(path)!;
    this.#files.delete(path);
    this.#files.set(path, { file, state });
  }
}
