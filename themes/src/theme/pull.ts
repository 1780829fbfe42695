/** `pull`: the theme's changes since the last pull, written into the folder; the folder's own changes stay. */
import { mkdir, rmdir, stat } from 'node:fs/promises';
import type { Client } from '@storefront-platform/sdk';
import { UsageError } from '../errors.js';
import { baseReader, recordBases } from './base-copies.js';
import { baseOf, type FileChange, settle } from './changes.js';
import { readInside, removeInside, writeInside } from './confined.js';
import type { FileFilter } from './file-filter.js';
import { limitOf } from './local.js';
import { type Manifest, writeManifest } from './manifest.js';
import { merge3 } from './merge.js';
import { CONCURRENCY, parallel } from './parallel.js';
import { contentOf, type RemoteFile, type ThemeRef } from './remote.js';
import { actionOf, type FileResult, fileFailure, type OnProgress } from './results.js';
import { openPullWorkspace, type Workspace } from './workspace.js';

/** Options of {@link pullTheme}. */
export interface PullOptions extends ThemeRef {
  client: Client;
  /** The theme folder; created when missing. */
  dir: string;
  /** Take the server's version of files changed in the folder too. Default: report them as conflicts. */
  force?: boolean;
  onProgress?: OnProgress;
  /**
   * Merge templates changed on both sides, three ways against the base the folder kept (see base-copies.ts): a clean
   * merge is written and reported `merged`, one whose changes overlap is written with conflict markers and reported
   * as a conflict. Other conflicts stay conflicts. Ignored with `force`.
   */
  merge?: boolean;
  /** Leaves files out (`.storefrontignore`, `--only`, `--ignore`): not brought, not removed. Default: every file. */
  filter?: FileFilter;
  /**
   * Called once both sides are read, before anything in the folder changes: throwing stops the pull there (dev
   * asks here whether a development theme that looks incomplete may replace the folder's files).
   */
  vet?: (workspace: Workspace) => Promise<void>;
  /** Where the manifest lies in the folder (an environment's own); default `.storefront-theme.json`. */
  manifestFile?: string;
}

/** What a pull did. */
export interface PullResult {
  workspace: Workspace;
  /**
   * The files written or removed in the folder, the conflicts left alone, and the theme's files refused or not
   * brought (`skipped`: an unsafe name, shown as a JSON string, a size past the API's limits, or a path the folder
   * holds as a symbolic link or behind one).
   */
  files: FileResult[];
  /**
   * The folder's changes left to push once the pull is done, by path: those the server did not touch, and the
   * templates a merge wrote with lines of the folder's (markers included), which are changes against their new
   * base. What `status` then counts as to push.
   */
  unpushed: string[];
}

/** Makes the folder when missing; says whether it did. */
async function ensureFolder(dir: string): Promise<boolean> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory()) throw new UsageError(`${dir} is not a folder`);
  if (!info) await mkdir(dir, { recursive: true });
  return !info;
}

/**
 * Brings the folder up to date with the theme: templates written under their file names, assets under
 * `assets/` (downloaded only when their MD5 changed), files deleted on the server removed. Files changed in the
 * folder are kept, to be pushed; those changed on both sides are conflicts, left alone unless `force`. The
 * manifest records the theme and every file as both sides now have it.
 */
export async function pullTheme(options: PullOptions): Promise<PullResult> {
  const made = await ensureFolder(options.dir);
  let workspace: Workspace;
  try {
    workspace = await openPullWorkspace(options.client, options.dir, options, options.filter, options.manifestFile);
    await options.vet?.(workspace);
  } catch (error) {
    // Nothing was written: a folder made for this pull goes again (rmdir removes only an empty one).
    if (made) await rmdir(options.dir).catch(() => {});
    throw error;
  }
  const { dir, manifest, local, remote, changes } = workspace;
  manifest.files = settle(manifest.files, local.files, remote);
  const files: FileResult[] = workspace.refused.map(({ kind, name, path, reason }) => ({
    path: path ?? name,
    kind,
    action: 'skipped',
    message: reason,
  }));
  // Said, not passed over in silence: the server changed them, and the folder does not get them.
  for (const change of workspace.linked.filter((c) => c.remote)) {
    files.push({ path: change.path, kind: change.kind, action: 'skipped', message: 'symbolic link' });
  }
  const merging: FileChange[] = [];
  const incoming = changes.filter((change) => {
    if (!change.remote) return false;
    if (!change.conflict || options.force) return true;
    if (options.merge && isMergeable(change)) merging.push(change);
    else files.push({ path: change.path, kind: change.kind, action: 'conflict', message: 'changed in the folder too' });
    return false;
  });
  const readBase = baseReader(dir);
  const unpushed = changes.filter((change) => change.local && !change.conflict).map((change) => change.path);
  for (const change of merging) {
    try {
      const { result, ahead } = await mergeOne(dir, manifest, change, remote.get(change.path)!, readBase);
      files.push(result);
      if (ahead) unpushed.push(change.path);
    } catch (error) {
      files.push(fileFailure(change.path, change.kind, error));
    }
  }
  let done = 0;
  const bring = async (change: (typeof incoming)[number]) => {
    const there = remote.get(change.path);
    try {
      if (there) {
        // Only a file the manifest tracks is replaced: anything else there is someone's, unless forced.
        const replace = change.path in manifest.files || options.force === true;
        await writeInside(dir, change.path, await contentOf(there), { replace });
        manifest.files[change.path] = baseOf(there);
      } else {
        await removeInside(dir, change.path);
        delete manifest.files[change.path];
      }
      const action = actionOf(local.files.has(change.path), there !== undefined);
      files.push({ path: change.path, kind: change.kind, action });
    } catch (error) {
      files.push(fileFailure(change.path, change.kind, error));
    }
    options.onProgress?.({ done: ++done, total: incoming.length, path: change.path });
  };
  // Removals after the writes: removing a folder's last file removes the folder, which a write into it (a file
  // renamed on the server: partials/old.html → partials/new.html) may have just found.
  const [writes, removals] = [incoming.filter((c) => remote.has(c.path)), incoming.filter((c) => !remote.has(c.path))];
  try {
    await parallel(writes, CONCURRENCY, bring);
    await parallel(removals, CONCURRENCY, bring);
  } finally {
    await writeManifest(dir, manifest, options.manifestFile);
    await recordBases(dir, manifest, remote);
  }
  return { workspace, files: files.sort((a, b) => (a.path < b.path ? -1 : 1)), unpushed: unpushed.sort() };
}

/** A template both sides still hold, changed on both: text a three-way merge can take. */
function isMergeable(change: FileChange): boolean {
  return change.kind === 'template' && change.local !== 'deleted' && change.remote !== 'deleted';
}

/**
 * Merges the folder's and the server's versions of a template against their base, writes the result into the folder
 * and makes the server's version the base: what the merge kept of the folder's side is then the folder's change, for
 * push (`ahead`; not when the server's version held the folder's changes already). Without a kept base (a folder
 * pulled by an earlier version) the file stays a conflict.
 */
async function mergeOne(
  dir: string,
  manifest: Manifest,
  change: FileChange,
  there: RemoteFile,
  readBase: (digest: string) => Promise<string | undefined>,
): Promise<{ result: FileResult; ahead: boolean }> {
  const { path, kind } = change;
  const entry = manifest.files[path];
  // Added on both sides: the common base is nothing.
  const base = entry ? await readBase(entry.md5) : '';
  if (base === undefined) {
    const message = 'changed in the folder too; no base kept to merge (pull again)';
    return { result: { path, kind, action: 'conflict', message }, ahead: false };
  }
  const ours = (await readInside(dir, path, limitOf(kind)))?.toString('utf8') ?? '';
  const theirs = String(await contentOf(there));
  const { text, conflicts } = merge3(base, ours, theirs);
  await writeInside(dir, path, text, { replace: true });
  manifest.files[path] = baseOf(there);
  const ahead = text !== theirs;
  if (!conflicts) return { result: { path, kind, action: 'merged' }, ahead };
  const regions = conflicts === 1 ? '1 region' : `${conflicts} regions`;
  const message = `merged with conflict markers (${regions}): resolve, then push`;
  return { result: { path, kind, action: 'conflict', message }, ahead };
}
