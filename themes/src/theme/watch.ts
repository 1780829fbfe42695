/**
 * `watch`: each file saved in the folder pushed to the development theme within a second. Saves are debounced
 * per file (an editor's save is often several writes), files go one request each and one at a time, a conflict is
 * reported and the watching goes on. chokidar watches the folder: Node 20's own recursive `fs.watch` misses events
 * on Linux (nodejs/node#48437) and crashes on some deletions (nodejs/node#52018), and chokidar also folds an
 * editor's atomic save (write a copy, rename it over) into one change. The states of a watch and their transitions
 * are in watch-machine.ts; this file connects them to the folder, the timers and the server.
 *
 * One retry policy, the SDK client's: after a network failure, a timeout or a 408, 429, 500, 502, 503 or 504, it
 * sends a PUT or a DELETE (a template's update, a deletion) again, twice, after 0.3 then 0.6 s or what the server's
 * `Retry-After` asks (at most 30 s); a POST (a new template, any asset), which the server could take twice, goes
 * once. `watch` announces those retries and never repeats a request itself. A file the client still could not send
 * is kept, not dropped: it goes again with the next save of any file, and once on its own a while later when a file
 * was saved since the last such attempt, so that an outage costs a few requests per save, whatever its length, and a
 * save made during it reaches the server once the server is back.
 */
import { relative, sep } from 'node:path';
import { type Client, HttpError, readRetryAfter } from '@storefront-platform/sdk';
import { watch } from 'chokidar';
import { UsageError } from '../errors.js';
import { printable } from '../printable.js';
import { compare, type FileChange } from './changes.js';
import { nameProblem } from './check-sources.js';
import { FileTooLargeError, readInside, UnsafePathError } from './confined.js';
import { md5 } from './digest.js';
import { EVERY_FILE, type FileFilter } from './file-filter.js';
import { fileAt, isSkipped, type ThemeFileId } from './layout.js';
import { limitOf, sameButForCase } from './local.js';
import { pushChanges } from './push.js';
import { previewUrl } from './remote.js';
import { isTransient } from './results.js';
import { type SendOutcome, type WatchEffect, type WatchEvent, WatchMachine } from './watch-machine.js';
import { pullServerChanges } from './watch-pull.js';
import { openWorkspace, readPulledFolder, type Workspace } from './workspace.js';

/**
 * Quiet time after a file's last write before it is sent: an editor's save may be several writes, or a copy
 * renamed over the file, which the watcher reports apart from each other.
 */
export const DEFAULT_DEBOUNCE_MS = 150;

/** How often the server is asked for the theme's changes: a 304 each time while there are none. */
export const DEFAULT_INTERVAL_MS = 2000;

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
   * server's `Retry-After` asks for longer. Default 30 s, the longest wait the client itself takes before a retry.
   */
  retryDelay?: number;
  /**
   * How often the server is asked for what changed there (a conditional GET of the theme: one 304 while nothing
   * did), ms; 0 never asks. Default {@link DEFAULT_INTERVAL_MS} (`storefront-themes watch --interval`).
   */
  interval?: number;
  /** Leaves files out (`.storefrontignore`, `--only`, `--ignore`): neither sent nor brought. Default: every file. */
  filter?: FileFilter;
}

/** How a watch ended. */
export interface WatchResult {
  /** Files saved but not sent when the watching stopped, by path: `push` sends them. */
  unsent: string[];
  /** Files left as conflicts (changed on both sides) and not settled since, by path: `pull --merge` or `push --force`. */
  conflicts: string[];
}

/** The wait in ms that the server asked for, if it did, read as the client reads it for its own retries. */
function retryAfterOf(error: unknown): number | undefined {
  return error instanceof HttpError ? readRetryAfter(new Headers(error.headers)) : undefined;
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

/** The deletions of the files the folder tracked under `path`'s name but for case and no longer lists. */
async function renamedFrom(dir: string, workspace: Workspace, path: string): Promise<FileChange[]> {
  const listed = await sameButForCase(dir, path);
  const gone = Object.keys(workspace.manifest.files).filter(
    (other) => other !== path && other.toLowerCase() === path.toLowerCase() && !listed.includes(other),
  );
  return gone.flatMap((other) => {
    const file = fileAt(other);
    const change = typeof file === 'object' ? changeOf(workspace, file, undefined) : undefined;
    return change?.local === 'deleted' ? [change] : [];
  });
}

/**
 * Pushes each file saved in a development theme's folder, one request per file once its saves settle, until
 * `signal` aborts; failures and conflicts are reported through `onEvent`, never thrown. Resolves with the files
 * left unsent.
 */
export async function watchTheme(options: WatchOptions): Promise<WatchResult> {
  const { client, dir, signal } = options;
  const filter = options.filter ?? EVERY_FILE;
  const interval = options.interval ?? DEFAULT_INTERVAL_MS;
  // Conflicts stay until the file is sent or brought: what the watch leaves to settle when it stops.
  const conflicts = new Set<string>();
  // A conflict is said once per save of the file: each save refused is answered, but a look at the server that
  // found it between the save and its refusal has said it already, and looks say it once until the next save.
  const said = new Set<string>();
  const onEvent = (event: WatchEvent) => {
    if (event.type === 'conflict') {
      conflicts.add(event.file.path);
      if (said.has(event.file.path)) return;
      said.add(event.file.path);
    } else if (event.type === 'pushed' || event.type === 'pulled') {
      conflicts.delete(event.file.path);
      said.delete(event.file.path);
    }
    options.onEvent(event);
  };
  // The folder says which theme it holds: refuse a production one before any request.
  const folder = await readPulledFolder(dir);
  if (folder.manifest.theme.production) {
    throw new UsageError(
      `${dir} holds the production theme: watch pushes to the development theme (run storefront-themes dev first)`,
    );
  }
  const workspace = await openWorkspace(client, dir, folder, filter);
  const machine = new WatchMachine({
    debounce: options.debounce ?? DEFAULT_DEBOUNCE_MS,
    retryDelay: options.retryDelay ?? 30_000,
  });
  // Stopped as the signal aborts, not later: a save or an outcome in between must not start a request.
  const stop = () => machine.stop();
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  const settleTimers = new Map<string, NodeJS.Timeout>();
  let retryTimer: NodeJS.Timeout | undefined;
  /** The request in flight, until its outcome reached the machine. */
  let inFlight: Promise<void> | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  /** The look at the server under way. */
  let polling: Promise<void> | undefined;
  /** A send and a look at the server both move the folder's manifest: one after the other. */
  let turn: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = turn.then(task);
    turn = run.catch(() => {});
    return run;
  };

  /** Asks the server what changed, brings it, and asks again an interval later. */
  function poll(): void {
    pollTimer = undefined;
    if (signal.aborted) return;
    polling = exclusive(async () => {
      try {
        const look = await pullServerChanges(workspace, filter, signal);
        onEvent({ type: 'checked', unchanged: look.unchanged });
        if (look.unchanged) return;
        for (const file of look.pulled) {
          if (file.action === 'failed') {
            onEvent({ type: 'failed', path: file.path, error: new Error(file.message), kept: false, waiting: 0 });
          } else onEvent({ type: 'pulled', file });
        }
        for (const file of look.conflicts) onEvent({ type: 'conflict', file });
      } catch (error) {
        if (!signal.aborted) onEvent({ type: 'unreachable', error });
      }
    }).finally(() => {
      polling = undefined;
      if (!signal.aborted) pollTimer = setTimeout(poll, interval);
    });
  }

  /** Sends one file as it is now, read once. */
  function sendOne(file: ThemeFileId): Promise<SendOutcome> {
    return exclusive(() => sendNow(file));
  }

  async function sendNow(file: ThemeFileId): Promise<SendOutcome> {
    const { path } = file;
    const started = performance.now();
    if (fileAt(path) === 'invalid') {
      return { type: 'ignored', reason: `${printable(path)}: a name the API refuses: ${nameProblem(path)}: not sent` };
    }
    try {
      const bytes = await readInside(dir, path, limitOf(file.kind));
      const change = changeOf(workspace, file, bytes);
      if (!change?.local) return { type: 'unchanged' };
      const contents = new Map(bytes ? [[path, bytes]] : []);
      // Renamed but for case (page.html → Page.html): the old name, gone from the folder, is deleted in the same send
      // (first), whichever of the two saves settled first; else the new name would be refused as its twin.
      const renamed = bytes && !workspace.remote.has(path) ? await renamedFrom(dir, workspace, path) : [];
      const { files } = await pushChanges(workspace, [...renamed, change], { contents, signal });
      return { type: 'answered', files, ms: performance.now() - started };
    } catch (error) {
      // Told by its size, never read: the API would refuse it anyway.
      if (error instanceof UnsafePathError || error instanceof FileTooLargeError) {
        return { type: 'ignored', reason: error.message };
      }
      if (signal.aborted || isTransient(error)) return { type: 'unreachable', error, retryAfter: retryAfterOf(error) };
      return { type: 'refused', error };
    }
  }

  /** Does what the machine asks, in order. */
  function perform(effects: readonly WatchEffect[]): void {
    for (const effect of effects) {
      if (effect.type === 'report') onEvent(effect.event);
      else if (effect.type === 'settle') {
        const { path } = effect;
        clearTimeout(settleTimers.get(path));
        const settled = () => {
          settleTimers.delete(path);
          perform(machine.settled(path));
        };
        settleTimers.set(path, setTimeout(settled, effect.ms));
      } else if (effect.type === 'retry') {
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          perform(machine.retryDue());
        }, effect.ms);
      } else {
        const { file } = effect;
        inFlight = sendOne(file).then((outcome) => perform(machine.sent(file.path, outcome)));
      }
    }
  }

  function saved(absolute: string, deleted = false): void {
    const path = relative(dir, absolute).split(sep).join('/');
    const file = fileAt(path);
    if (!file || !filter(path)) return;
    if (file === 'invalid') {
      // Never sent (sendNow refuses it by its path before anything), but its save takes its turn like any other, so
      // that the refusal is said once per save, settled. A deletion of it changes nothing on either side.
      if (!deleted)
        perform(machine.saved({ kind: path.startsWith('assets/') ? 'asset' : 'template', name: path, path }));
      return;
    }
    said.delete(file.path);
    perform(machine.saved(file));
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
  const stopListening = client.on('retry', (retry) => perform(machine.retrying(retry)));
  try {
    await new Promise<void>((resolve, reject) => {
      watcher.once('ready', resolve);
      watcher.once('error', reject);
    });
    watcher
      .on('add', (path) => saved(path))
      .on('change', (path) => saved(path))
      .on('unlink', (path) => saved(path, true));
    onEvent({
      type: 'ready',
      workspace,
      preview: previewUrl(workspace.theme),
      unpushed: workspace.changes.filter((c) => c.local).length,
    });
    if (interval > 0) pollTimer = setTimeout(poll, interval);
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
    for (const timer of settleTimers.values()) clearTimeout(timer);
    clearTimeout(retryTimer);
    clearTimeout(pollTimer);
    await watcher.close();
    await polling;
    // Each outcome may start the next request: wait for the last one the machine asked for.
    while (inFlight) {
      const last = inFlight;
      await last;
      if (inFlight === last) inFlight = undefined;
    }
    stopListening();
  }
  // A file the watch wrote itself (brought from the server) is seen saved too: unsent only if it differs from the base.
  const unsent: string[] = [];
  for (const path of machine.unsent()) {
    // A name the API refuses was not sent, and push would not send it either.
    if (fileAt(path) === 'invalid') continue;
    const bytes = await readInside(dir, path).catch(() => undefined);
    if ((bytes ? md5(bytes) : undefined) !== workspace.manifest.files[path]?.md5) unsent.push(path);
  }
  return { unsent, conflicts: [...conflicts].sort() };
}
