/** `pull`: the theme's changes since the last pull, written into the folder; the folder's own changes stay. */
import { mkdir, stat } from 'node:fs/promises';
import type { Client } from '@storefront-platform/sdk';
import { UsageError } from '../errors.js';
import { baseOf, settle } from './changes.js';
import { removeInside, writeInside } from './confined.js';
import { writeManifest } from './manifest.js';
import { CONCURRENCY, parallel } from './parallel.js';
import { contentOf, type ThemeRef } from './remote.js';
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
   * Called once both sides are read, before anything in the folder changes: throwing stops the pull there (dev
   * asks here whether a development theme that looks incomplete may replace the folder's files).
   */
  vet?: (workspace: Workspace) => Promise<void>;
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
}

async function ensureFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory()) throw new UsageError(`${dir} is not a folder`);
  if (!info) await mkdir(dir, { recursive: true });
}

/**
 * Brings the folder up to date with the theme: templates written under their file names, assets under
 * `assets/` (downloaded only when their MD5 changed), files deleted on the server removed. Files changed in the
 * folder are kept, to be pushed; those changed on both sides are conflicts, left alone unless `force`. The
 * manifest records the theme and every file as both sides now have it.
 */
export async function pullTheme(options: PullOptions): Promise<PullResult> {
  await ensureFolder(options.dir);
  const workspace = await openPullWorkspace(options.client, options.dir, options);
  await options.vet?.(workspace);
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
  const incoming = changes.filter((change) => {
    if (!change.remote) return false;
    if (!change.conflict || options.force) return true;
    files.push({ path: change.path, kind: change.kind, action: 'conflict', message: 'changed in the folder too' });
    return false;
  });
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
    await writeManifest(dir, manifest);
  }
  return { workspace, files: files.sort((a, b) => (a.path < b.path ? -1 : 1)) };
}
