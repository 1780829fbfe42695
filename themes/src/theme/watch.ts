/**
 * `watch`: each file saved in the folder pushed to the development theme within a second. Saves are debounced
 * per file (an editor's save is often several writes), files go one request each and one at a time, a network
 * failure is retried, a conflict is reported and the watching goes on. chokidar watches the folder: Node 20's
 * own recursive `fs.watch` misses events on Linux (nodejs/node#48437) and crashes on some deletions
 * (nodejs/node#52018), and chokidar also folds an editor's atomic save (write a copy, rename it over) into one
 * change.
 */
import { relative, sep } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { watch } from 'chokidar';
import { type Client, NetworkError, ServerError, TimeoutError } from 'storefront-sdk';
import { UsageError } from '../errors.js';
import { compare } from './changes.js';
import { fileAt, isSkipped } from './layout.js';
import { digestOf } from './local.js';
import { pushChanges } from './push.js';
import { previewUrl } from './remote.js';
import type { FileResult } from './results.js';
import { openWorkspace, type Workspace } from './workspace.js';

/** What `watch` reports as it goes. */
export type WatchEvent =
  | { type: 'ready'; workspace: Workspace; preview: string; unpushed: number }
  | { type: 'pushed'; file: FileResult; ms: number }
  | { type: 'conflict'; file: FileResult }
  | { type: 'failed'; path: string; error: unknown; willRetry: false }
  | { type: 'retrying'; path: string; error: unknown; attempt: number; delay: number };

/** Options of {@link watchTheme}. */
export interface WatchOptions {
  client: Client;
  /** A folder holding the development theme (see `dev`). */
  dir: string;
  onEvent(event: WatchEvent): void;
  /** Stops the watching; the promise of {@link watchTheme} then resolves once the file in flight is done. */
  signal: AbortSignal;
  /** Quiet time after a file's last event before it is pushed, ms. Default 150. */
  debounce?: number;
  /** Waits between the attempts at a file the server could not be reached for, ms. Default 1, 2, 4 and 8 s. */
  retryDelays?: readonly number[];
}

const isTransient = (error: unknown) =>
  error instanceof NetworkError || error instanceof TimeoutError || error instanceof ServerError;

/** Waits `ms`, or less when `signal` aborts; never rejects. */
const sleep = (ms: number, signal: AbortSignal) => wait(ms, undefined, { signal }).catch(() => undefined);

/**
 * Pushes each file saved in a development theme's folder, one request per file once its saves settle, until
 * `signal` aborts; network failures are retried and conflicts reported through `onEvent`, never thrown.
 */
export async function watchTheme(options: WatchOptions): Promise<void> {
  const { dir, onEvent, signal } = options;
  const workspace = await openWorkspace(options.client, dir);
  if (workspace.manifest.theme.production) {
    throw new UsageError(
      `${dir} holds the production theme: watch pushes to the development theme (run storefront-themes dev first)`,
    );
  }
  const delays = options.retryDelays ?? [1000, 2000, 4000, 8000];
  const timers = new Map<string, NodeJS.Timeout>();
  const queue: string[] = [];
  let running: Promise<void> | undefined;

  /** The file's change against the base and the theme as last seen, pushed; nothing when it is back as it was. */
  async function pushOne(path: string): Promise<void> {
    const file = fileAt(path);
    if (!file || file === 'invalid') return;
    const digest = await digestOf(dir, path);
    const base = workspace.manifest.files[path];
    const remote = workspace.remote.get(path);
    const [change] = compare(
      base ? { [path]: base } : {},
      new Map(digest ? [[path, { ...file, md5: digest }]] : []),
      new Map(remote ? [[path, remote]] : []),
    );
    if (!change?.local) return;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      try {
        const { files } = await pushChanges(workspace, [change]);
        for (const result of files) {
          if (result.action === 'conflict') onEvent({ type: 'conflict', file: result });
          else if (result.action === 'failed')
            onEvent({ type: 'failed', path, error: new Error(result.message), willRetry: false });
          else onEvent({ type: 'pushed', file: result, ms: performance.now() - started });
        }
        return;
      } catch (error) {
        const delay = delays[attempt];
        if (!isTransient(error) || delay === undefined || signal.aborted) {
          onEvent({ type: 'failed', path, error, willRetry: false });
          return;
        }
        onEvent({ type: 'retrying', path, error, attempt: attempt + 1, delay });
        await sleep(delay, signal);
      }
    }
  }

  function drain(): void {
    if (running) return;
    running = (async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) await pushOne(path);
    })().finally(() => {
      running = undefined;
      if (queue.length && !signal.aborted) drain();
    });
  }

  function saved(absolute: string): void {
    const path = relative(dir, absolute).split(sep).join('/');
    const file = fileAt(path);
    if (!file || file === 'invalid' || signal.aborted) return;
    clearTimeout(timers.get(path));
    timers.set(
      path,
      setTimeout(() => {
        timers.delete(path);
        if (!queue.includes(path)) queue.push(path);
        drain();
      }, options.debounce ?? 150),
    );
  }

  const watcher = watch(dir, {
    ignoreInitial: true,
    ignored: (path) => {
      const rel = relative(dir, path);
      return rel !== '' && rel.split(sep).some(isSkipped);
    },
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
    for (const timer of timers.values()) clearTimeout(timer);
    await watcher.close();
    await running;
  }
}
