/**
 * `watch`: each file saved in the folder pushed to the development theme within a second. Saves are debounced
 * per file (an editor's save is often several writes), files go one request each and one at a time, a conflict is
 * reported and the watching goes on. chokidar watches the folder: Node 20's own recursive `fs.watch` misses events
 * on Linux (nodejs/node#48437) and crashes on some deletions (nodejs/node#52018), and chokidar also folds an
 * editor's atomic save (write a copy, rename it over) into one change.
 *
 * One retry policy, the SDK client's: it sends a request again on a network failure, a timeout or a 5xx (the
 * requests that may be sent twice: updates and deletions), with backoff, waiting what the server's `Retry-After`
 * asks. `watch` announces those retries and never repeats a request itself. A file the client still could not send
 * is kept, not dropped: it goes again with the next save of any file, and once on its own a while later, so that
 * an outage costs a few requests per save, whatever its length, and a save made during it reaches the server once
 * the server is back.
 */
import { relative, sep } from 'node:path';
import { type Client, HttpError } from '@storefront-platform/sdk';
import { watch } from 'chokidar';
import { UsageError } from '../errors.js';
import { compare, type FileChange } from './changes.js';
import { readInside, UnsafePathError } from './confined.js';
import { md5 } from './digest.js';
import { fileAt, isSkipped, type ThemeFileId } from './layout.js';
import { pushChanges } from './push.js';
import { previewUrl } from './remote.js';
import { type FileResult, isTransient } from './results.js';
import { openWorkspace, readPulledFolder, type Workspace } from './workspace.js';

/**
 * What `watch` reports as it goes. `retrying`: the client sends a request of the file again after `delay` ms (its
 * retry policy at work; `attempt` is the one that failed). `failed`: the file was not sent. When `kept`, the network
 * or the server failed it after the client's retries: it waits, `waiting` files in all, for the next save of any
 * file, and for one attempt on its own in `retryIn` ms when that is set. Otherwise the server refused the file
 * itself, or the login: it goes again once saved again. `ignored`: the path is a symbolic link, or lies in a linked
 * folder; it is never followed, so nothing of it is sent (and a file replaced by one is not deleted).
 */
export type WatchEvent =
  | { type: 'ready'; workspace: Workspace; preview: string; unpushed: number }
  | { type: 'ignored'; path: string; reason: string }
  | { type: 'pushed'; file: FileResult; ms: number }
  | { type: 'conflict'; file: FileResult }
  | { type: 'retrying'; path: string; error: unknown; attempt: number; delay: number }
  | { type: 'failed'; path: string; error: unknown; kept: boolean; waiting: number; retryIn?: number };

/**
 * Quiet time after a file's last write before it is sent: an editor's save may be several writes, or a copy
 * renamed over the file, which the watcher reports apart from each other.
 */
export const DEFAULT_DEBOUNCE_MS = 150;

/** Options of {@link watchTheme}. */
export interface WatchOptions {
  client: Client;
  /** A folder holding the development theme (see `dev`). */
  dir: string;
  onEvent(event: WatchEvent): void;
  /** Stops the watching, and the request in flight; the promise of {@link watchTheme} then resolves. */
  signal: AbortSignal;
  /** Quiet time after a file's last event before it is pushed, ms. Default 150 (`storefront-themes watch --debounce`). */
  debounce?: number;
  /**
   * Wait before kept files (see {@link WatchEvent} `failed`) are sent again on their own, once, ms; longer when the
   * server's `Retry-After` asks for longer. Default 30 s, beyond the longest wait the client takes by itself.
   */
  retryDelay?: number;
}

/** How a watch ended. */
export interface WatchResult {
  /** Files saved but not sent when the watching stopped, by path: `push` sends them. */
  unsent: string[];
}

/** The wait in ms that the server asked for in `Retry-After` (seconds or an HTTP date), if it did. */
function retryAfterOf(error: unknown): number | undefined {
  const value = error instanceof HttpError ? error.headers['retry-after']?.trim() : undefined;
  if (!value) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}

/** The change of one file, whose bytes are `bytes` (`undefined`: deleted), against the base and the theme as last seen. */
function changeOf(workspace: Workspace, file: ThemeFileId, bytes: Uint8Array | undefined): FileChange | undefined {
  const { path } = file;
  const base = workspace.manifest.files[path];
  const remote = workspace.remote.get(path);
  const [change] = compare(
    base ? { [path]: base } : {},
    new Map(bytes ? [[path, { ...file, md5: md5(bytes) }]] : []),
    new Map(remote ? [[path, remote]] : []),
  );
  return change;
}

/**
 * Pushes each file saved in a development theme's folder, one request per file once its saves settle, until
 * `signal` aborts; failures and conflicts are reported through `onEvent`, never thrown. Resolves with the files
 * left unsent.
 */
export async function watchTheme(options: WatchOptions): Promise<WatchResult> {
  const { client, dir, onEvent, signal } = options;
  // The folder says which theme it holds: refuse a production one before any request.
  const folder = await readPulledFolder(dir);
  if (folder.manifest.theme.production) {
    throw new UsageError(
      `${dir} holds the production theme: watch pushes to the development theme (run storefront-themes dev first)`,
    );
  }
  const workspace = await openWorkspace(client, dir, folder);
  const retryDelay = options.retryDelay ?? 30_000;
  /** Files saved, waiting for their saves to settle. */
  const settling = new Map<string, NodeJS.Timeout>();
  /** Files to send, in order (a Map keeps its order of insertion). */
  const queue = new Map<string, ThemeFileId>();
  /** Files the network or the server failed, until the next save or the attempt of {@link retryTimer}. */
  const kept = new Map<string, ThemeFileId>();
  let retryTimer: NodeJS.Timeout | undefined;
  /** Whether a file was saved since {@link retryTimer} last fired: only a save earns an attempt on its own. */
  let savedSinceRetry = false;
  /** The file whose requests are in flight, whose retries the client announces. */
  let sending: string | undefined;
  let running: Promise<void> | undefined;

  /** Sends one file as it is now, read once; resolves with the error when the network or the server failed it. */
  async function pushOne(file: ThemeFileId): Promise<{ error: unknown } | undefined> {
    const { path } = file;
    const failed = (error: unknown) => onEvent({ type: 'failed', path, error, kept: false, waiting: kept.size });
    sending = path;
    const started = performance.now();
    try {
      const bytes = await readInside(dir, path);
      const change = changeOf(workspace, file, bytes);
      if (!change?.local) return;
      const contents = new Map(bytes ? [[path, bytes]] : []);
      const { files } = await pushChanges(workspace, [change], { contents, signal });
      for (const result of files) {
        if (result.action === 'conflict') onEvent({ type: 'conflict', file: result });
        else if (result.action === 'failed') failed(new Error(result.message));
        else onEvent({ type: 'pushed', file: result, ms: performance.now() - started });
      }
    } catch (error) {
      if (error instanceof UnsafePathError) {
        onEvent({ type: 'ignored', path, reason: error.message });
        return;
      }
      if (signal.aborted || isTransient(error)) return { error };
      failed(error);
    } finally {
      sending = undefined;
    }
  }

  /** Keeps `failed` and the files queued after it (they would fail alike), and says when they go again. */
  function keep(failed: ThemeFileId, error: unknown): void {
    for (const file of [failed, ...queue.values()]) kept.set(file.path, file);
    queue.clear();
    if (signal.aborted) return;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    let retryIn: number | undefined;
    if (savedSinceRetry) {
      retryIn = Math.max(retryDelay, retryAfterOf(error) ?? 0);
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        savedSinceRetry = false;
        send();
      }, retryIn);
    }
    const event: WatchEvent = { type: 'failed', path: failed.path, error, kept: true, waiting: kept.size };
    onEvent(retryIn === undefined ? event : { ...event, retryIn });
  }

  function drain(): void {
    if (running) return;
    running = (async () => {
      while (queue.size && !signal.aborted) {
        const file = queue.values().next().value!;
        queue.delete(file.path);
        const failure = await pushOne(file);
        if (failure) keep(file, failure.error);
      }
    })().finally(() => {
      running = undefined;
      if (queue.size && !signal.aborted) drain();
    });
  }

  /** Queues `file` (when given), then the kept files, and sends them. */
  function send(file?: ThemeFileId): void {
    if (file) queue.set(file.path, file);
    for (const [path, waiting] of kept) if (!queue.has(path)) queue.set(path, waiting);
    kept.clear();
    drain();
  }

  function saved(absolute: string): void {
    const path = relative(dir, absolute).split(sep).join('/');
    const file = fileAt(path);
    if (!file || file === 'invalid' || signal.aborted) return;
    clearTimeout(settling.get(path));
    settling.set(
      path,
      setTimeout(() => {
        settling.delete(path);
        savedSinceRetry = true;
        send(file);
      }, options.debounce ?? DEFAULT_DEBOUNCE_MS),
    );
  }

  const watcher = watch(dir, {
    ignoreInitial: true,
    // A link is reported as itself (and ignored when its turn comes), never as what it points to.
    followSymlinks: false,
    ignored: (path) => {
      const rel = relative(dir, path);
      return rel !== '' && rel.split(sep).some(isSkipped);
    },
  });
  const stopListening = client.on('retry', ({ attempt, delay, error }) => {
    if (sending) onEvent({ type: 'retrying', path: sending, error, attempt, delay });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      watcher.once('ready', resolve);
      watcher.once('error', reject);
    });
    watcher.on('add', saved).on('change', saved).on('unlink', saved);
    onEvent({
      type: 'ready',
      workspace,
      preview: previewUrl(workspace.theme),
      unpushed: workspace.changes.filter((c) => c.local).length,
    });
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  } finally {
    for (const timer of settling.values()) clearTimeout(timer);
    clearTimeout(retryTimer);
    await watcher.close();
    await running;
    stopListening();
  }
  return { unsent: [...new Set([...kept.keys(), ...queue.keys(), ...settling.keys()])].sort() };
}
