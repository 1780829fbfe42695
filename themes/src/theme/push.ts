/** `push`: the folder's changes since the last pull, sent to its theme; only those, one request per file. */
import type { Client, Theme } from '@storefront-platform/sdk';
import { CliError } from '../errors.js';
import { printable } from '../printable.js';
import { baseKeeper } from './base-copies.js';
import { baseOf, compare, type FileChange, settle } from './changes.js';
import { readInside } from './confined.js';
import { md5 } from './digest.js';
import { EVERY_FILE, type FileFilter } from './file-filter.js';
import { isUnread, limitOf, type OversizeFile, sameButForCase } from './local.js';
import { type Manifest, writeManifest } from './manifest.js';
import { hasConflictMarkers } from './merge.js';
import { CONCURRENCY, parallel } from './parallel.js';
import { type RemoteFile, restoredFiles, twinReason } from './remote.js';
import { actionOf, type FileAction, type FileResult, fileFailure, type OnProgress } from './results.js';
import { type FolderRead, openWorkspace, readPulledFolder, type Workspace } from './workspace.js';
import { guardOf, type Upload, writeFile } from './writes.js';

/** Options of {@link pushTheme}. */
export interface PushOptions {
  client: Client;
  /** The theme folder (pulled before). */
  dir: string;
  /** Send files changed on the server too, overwriting those changes. Default: report them as conflicts. */
  force?: boolean;
  /** Say what would be sent, send nothing. */
  dryRun?: boolean;
  onProgress?: OnProgress;
  /** Leaves files out (`.storefrontignore`, `--only`, `--ignore`): neither sent nor deleted. Default: every file. */
  filter?: FileFilter;
  /** Where the manifest lies in the folder (an environment's own); default `.storefront-theme.json`. */
  manifestFile?: string;
  /**
   * The folder's files as read already (one read for the pushes of several environments); default: read here.
   * @internal the CLI's, not part of the API
   */
  folder?: FolderRead;
  /**
   * The manifest to start from when the folder has none at `manifestFile` (an environment's first push): written
   * once the push compared or sent, never by a dry run.
   * @internal the CLI's, not part of the API
   */
  start?: Manifest;
  /** Aborts the requests under way (a second Ctrl-C). */
  signal?: AbortSignal;
  /**
   * Starts no further request once aborted (a first Ctrl-C): the push ends with {@link PushCutShortError}, or with
   * the signal's reason when it had sent nothing yet (reading the folder or the theme: those reads are aborted).
   */
  stop?: AbortSignal;
}

/**
 * A push that failed or was stopped after sending part of the folder's changes: `cause` is what stopped it, and
 * `result` what it did until then, as a push that ends says it: `files` holds those it sent (and recorded in the
 * manifest) and the conflicts and failures already known. `status` shows the rest, and a push again sends it.
 */
export class PushCutShortError extends Error {
  override name = 'PushCutShortError';
  /** What the push did until then, as a push that ends says it. */
  readonly result: PushResult;
  /**
   * Every file's result so far (`result.files`): those sent (`created`, `updated`, `deleted`, `unchanged`), the
   * conflicts and the failures.
   */
  readonly files: FileResult[];
  constructor(
    override readonly cause: unknown,
    result: PushResult,
  ) {
    const sent = result.files.filter((file) => SENT.has(file.action)).length;
    super(`push cut short after sending ${sent} files: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.result = result;
    this.files = result.files;
  }
}

/** The actions of a file whose request went and was answered: what a push cut short has sent. */
export const SENT: ReadonlySet<FileAction> = new Set(['created', 'updated', 'deleted', 'unchanged']);

/** What a push did (or, dry, would do). */
export interface PushResult {
  dir: string;
  /** The folder's manifest as the push left it: which theme, and each file as both sides now have it. */
  manifest: Manifest;
  /** The files sent (or to send), the conflicts left alone, the case twins skipped and the failures. */
  files: FileResult[];
  /** Changes on the server since the last pull, not pulled yet; `undefined` when the push did not read the theme. */
  incoming: FileChange[] | undefined;
  /** Symbolic links in the folder, ignored: neither sent nor, for a file replaced by one, deleted. */
  links: string[];
  dryRun: boolean;
}

/**
 * Where {@link pushChanges} writes: the folder, its manifest, the files of the theme as last seen there, and the
 * theme, which creating a file needs (a push of template edits alone goes without it).
 */
export type PushTarget = Pick<Workspace, 'dir' | 'manifest' | 'remote'> & { theme?: Theme; manifestFile?: string };

/** Options of {@link pushChanges}. */
export interface SendOptions extends Pick<PushOptions, 'force' | 'dryRun' | 'onProgress'> {
  /** Bytes of files to send that the caller has read already, by path: sent as they are, not read again. */
  contents?: ReadonlyMap<string, Uint8Array>;
  /** Aborts the requests (and the client's retries of them). */
  signal?: AbortSignal;
  /** Starts no further request once aborted; those under way finish and are recorded. */
  stop?: AbortSignal;
  /** Receives each file's result as it comes, so that the caller knows what was sent when a failure ends the push. */
  results?: FileResult[];
}

/**
 * Sends the folder's changes to its theme: templates by content (with the `last_updated_on` guard), assets by
 * MD5, deletions. A file changed on the server too is a conflict, left alone unless `force`. The manifest then
 * records what was sent, also when a failure stops the push halfway. Edited templates alone are sent without
 * reading the theme first (their guard finds the conflicts): one request per file; not so with `force`, which
 * reads the theme to create again a template deleted there.
 */
export async function pushTheme(options: PushOptions): Promise<PushResult> {
  const { client, dir, manifestFile } = options;
  // The files as read for the comparison are the bytes sent: each is read once.
  const changed = new Map<string, Uint8Array>();
  const folder = await readPulledFolder(dir, manifestFile, changed, options.folder, options.start);
  options.stop?.throwIfAborted();
  const { local, manifest } = folder;
  const results: FileResult[] = [];
  const send: SendOptions = { ...options, contents: changed, results };
  const sendChanges = async (target: PushTarget, changes: readonly FileChange[], incoming?: FileChange[]) => {
    const ended = (pushed: Omit<PushResult, 'incoming' | 'links'>): PushResult => ({
      ...pushed,
      incoming,
      links: local.links,
    });
    try {
      return ended(await pushChanges(target, changes, send));
    } catch (error) {
      // Cut short after sending some: said as such, with what went and what is known of the rest.
      if (!results.some((file) => SENT.has(file.action))) throw error;
      const { dir, manifest } = target;
      throw new PushCutShortError(error, ended({ dir, manifest, files: sorted(results), dryRun: false }));
    }
  };
  // Template edits need no read of the theme: each is sent with the lost-update guard, so the server refuses one
  // changed there since, and a push of one edited file is one request. Anything else is compared with the theme,
  // and so is a forced push: it goes without the guard, and only the theme tells a template deleted there (which
  // --force creates again from the folder's copy) from one to update.
  const filter = options.filter ?? EVERY_FILE;
  refuseOversize(local.oversize.filter((file) => filter(file.path)));
  const base = new Map(Object.entries(manifest.files));
  const edits = compare(manifest.files, local.files, base).filter((c) => !isUnread(local, c.path) && filter(c.path));
  const editsOnly = edits.every((c) => c.kind === 'template' && c.local === 'changed' && base.get(c.path)?.links);
  if (edits.length && editsOnly && !options.dryRun && !options.force) {
    // The templates as the base saw them, restored from the links the manifest kept: needed on this way only.
    const known = restoredFiles(client, manifest);
    return sendChanges({ dir, manifest, remote: known, manifestFile }, edits);
  }
  // Nothing is sent before the comparison: a stop ends the push at once.
  const workspace = await openWorkspace(client, dir, folder, filter, options.stop);
  if (!options.dryRun)
    workspace.manifest.files = settle(workspace.manifest.files, workspace.local.files, workspace.remote);
  const incoming = workspace.changes.filter((c) => c.remote && !c.conflict);
  return sendChanges({ ...workspace, manifestFile }, workspace.changes, incoming);
}

/** Nothing is sent while a file to send is over the API's limit: the push would stop on it halfway. */
function refuseOversize(files: readonly OversizeFile[]): void {
  if (!files.length) return;
  const list = files.map(({ path, size, limit }) => `${printable(path)} (${size} bytes, at most ${limit})`);
  throw new CliError(`Nothing pushed: over the API's size limit: ${list.join(', ')}`);
}

/**
 * Sends `changes` of `workspace` (its own, or one file at a time for `watch`), each file as it is on disk when
 * its turn comes (unless given in `contents`), and records each in the manifest, whose base is kept up to date
 * in `workspace`.
 */
export async function pushChanges(
  target: PushTarget,
  changes: readonly FileChange[],
  options: SendOptions = {},
): Promise<Omit<PushResult, 'incoming' | 'links'>> {
  const { dir, theme, remote, manifest, manifestFile } = target;
  const outgoing = changes.filter((change) => change.local);
  const files: FileResult[] = options.results ?? [];
  const send = outgoing.filter((change) => {
    if (!change.conflict || options.force) return true;
    const message = change.remote === 'deleted' ? 'deleted on the server' : 'changed on the server too';
    files.push({ path: change.path, kind: change.kind, action: 'conflict', message });
    return false;
  });
  const listings = new Map<string, Promise<string[]>>();
  const skipTwin = (change: FileChange, twin: string) =>
    files.push({ path: change.path, kind: change.kind, action: 'skipped', message: twinReason(twin) });
  // A rename but for case (page.html → Page.html) deletes the old name before it creates the new one, not a twin.
  const deleted = new Set(send.filter((change) => change.local === 'deleted').map((change) => change.path));
  const deletedCases = new Set([...deleted].map((path) => path.toLowerCase()));
  const renamed = (change: FileChange) => change.local !== 'deleted' && deletedCases.has(change.path.toLowerCase());
  if (options.dryRun) {
    const after = new Map([...remote].filter(([path]) => !deleted.has(path)));
    for (const c of send) {
      const twin =
        remote.has(c.path) || c.local === 'deleted' ? undefined : await caseTwin(dir, c.path, after, listings);
      if (twin) skipTwin(c, twin);
      else files.push({ path: c.path, kind: c.kind, action: actionOf(remote.has(c.path), c.local !== 'deleted') });
    }
    return { dir, manifest, files: sorted(files), dryRun: true };
  }
  let done = 0;
  /** The templates sent are now the base: kept for a later merge. */
  const bases = baseKeeper(dir);
  try {
    const sendOne = async (change: FileChange) => {
      // Stopped: no further request starts (the rejection ends the push once those under way are recorded).
      options.stop?.throwIfAborted();
      const current = remote.get(change.path);
      const content =
        change.local === 'deleted'
          ? undefined
          : (options.contents?.get(change.path) ?? (await readInside(dir, change.path, limitOf(change.kind))));
      if (!content && !current) {
        // Added, then removed before its turn: nothing on either side.
        delete manifest.files[change.path];
        return;
      }
      const twin = current ? undefined : await caseTwin(dir, change.path, remote, listings);
      if (twin) {
        skipTwin(change, twin);
        options.onProgress?.({ done: ++done, total: send.length, path: change.path });
        return;
      }
      // A merge's markers left in a template would reach the shop's pages: never sent.
      if (content && change.kind === 'template' && hasConflictMarkers(Buffer.from(content).toString('utf8'))) {
        const message = 'holds conflict markers (<<<<<<< … >>>>>>>): resolve them first';
        files.push({ path: change.path, kind: change.kind, action: 'failed', message });
        options.onProgress?.({ done: ++done, total: send.length, path: change.path });
        return;
      }
      const upload: Upload = { kind: change.kind, name: change.name, path: change.path, content };
      // The guard: the server's copy is the one the edit is based on, unless forced over the server's changes.
      const guard = change.remote || options.force ? undefined : guardOf(manifest.files[change.path], current);
      try {
        const { file: written, unchanged } = await writeFile(theme, upload, current, guard, options.signal);
        if (written) {
          const digest = md5(content!);
          remote.set(change.path, written);
          manifest.files[change.path] = baseOf(written, digest);
          if (change.kind === 'template') bases.keep(content!, digest);
        } else {
          remote.delete(change.path);
          delete manifest.files[change.path];
        }
        files.push({
          path: change.path,
          kind: change.kind,
          // Counted as what this push changed, not what it asked: after a push cut short, its files are there.
          action: unchanged ? 'unchanged' : actionOf(current !== undefined, content !== undefined),
        });
      } catch (error) {
        files.push(fileFailure(change.path, change.kind, error));
      }
      options.onProgress?.({ done: ++done, total: send.length, path: change.path });
    };
    await parallel(
      send.filter((change) => !renamed(change)),
      CONCURRENCY,
      sendOne,
    );
    await parallel(send.filter(renamed), CONCURRENCY, sendOne);
  } finally {
    await writeManifest(dir, manifest, manifestFile);
    await bases.done();
  }
  return { dir, manifest, files: sorted(files), dryRun: false };
}

const sameCase = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A file of the theme (`remote`) or of the folder whose name is `path`'s but for case, if any: creating `path` would
 * make a twin, one file on a disk that ignores case (macOS, Windows), which pull refuses, so that the folder could
 * neither see nor delete the server's copy. `listings`: the folder's, kept for the push's next file.
 */
async function caseTwin(
  dir: string,
  path: string,
  remote: ReadonlyMap<string, RemoteFile>,
  listings: Map<string, Promise<string[]>>,
): Promise<string | undefined> {
  for (const other of remote.keys()) if (other !== path && sameCase(other, path)) return other;
  return (await sameButForCase(dir, path, listings)).find((other) => other !== path);
}

function sorted(files: FileResult[]): FileResult[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
