/** `push`: the folder's changes since the last pull, sent to its theme; only those, one request per file. */
import type { Client } from 'storefront-sdk';
import { baseOf, type FileChange, settle } from './changes.js';
import { md5 } from './digest.js';
import { readLocal } from './local.js';
import { writeManifest } from './manifest.js';
import { CONCURRENCY, parallel } from './parallel.js';
import { actionOf, type FileResult, fileFailure, type OnProgress } from './results.js';
import { openWorkspace, type Workspace } from './workspace.js';
import { type Upload, writeFile } from './writes.js';

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
}

/** What a push did (or, dry, would do). */
export interface PushResult {
  workspace: Workspace;
  /** The files sent (or to send), the conflicts left alone and the failures. */
  files: FileResult[];
  dryRun: boolean;
}

/**
 * Sends the folder's changes to its theme: templates by content (with the `last_updated_on` guard), assets by
 * MD5, deletions. A file changed on the server too is a conflict, left alone unless `force`. The manifest then
 * records what was sent, also when a failure stops the push halfway.
 */
export async function pushTheme(options: PushOptions): Promise<PushResult> {
  const workspace = await openWorkspace(options.client, options.dir);
  const { manifest, local, remote } = workspace;
  if (!options.dryRun) manifest.files = settle(manifest.files, local.files, remote);
  return pushChanges(workspace, workspace.changes, options);
}

/**
 * Sends `changes` of `workspace` (its own, or one file at a time for `watch`), each file as it is on disk when
 * its turn comes, and records each in the manifest, whose base is kept up to date in `workspace`.
 */
export async function pushChanges(
  workspace: Workspace,
  changes: readonly FileChange[],
  options: Pick<PushOptions, 'force' | 'dryRun' | 'onProgress'> = {},
): Promise<PushResult> {
  const { dir, theme, remote, manifest } = workspace;
  const outgoing = changes.filter((change) => change.local);
  const files: FileResult[] = [];
  const send = outgoing.filter((change) => {
    if (!change.conflict || options.force) return true;
    files.push({ path: change.path, kind: change.kind, action: 'conflict', message: 'changed on the server too' });
    return false;
  });
  if (options.dryRun) {
    for (const c of send)
      files.push({ path: c.path, kind: c.kind, action: actionOf(remote.has(c.path), c.local !== 'deleted') });
    return { workspace, files: sorted(files), dryRun: true };
  }
  let done = 0;
  try {
    await parallel(send, CONCURRENCY, async (change) => {
      const current = remote.get(change.path);
      const content = change.local === 'deleted' ? undefined : await readLocal(dir, change.path);
      if (!content && !current) {
        // Added, then removed before its turn: nothing on either side.
        delete manifest.files[change.path];
        return;
      }
      const upload: Upload = { kind: change.kind, name: change.name, path: change.path, content };
      // The guard: the server's copy is the one the edit is based on, unless that copy changed (a forced conflict).
      const guard = change.remote ? undefined : current?.updated_on;
      try {
        const written = await writeFile(theme, upload, current, guard);
        if (written) {
          remote.set(change.path, written);
          manifest.files[change.path] = baseOf(written, md5(content!));
        } else {
          remote.delete(change.path);
          delete manifest.files[change.path];
        }
        files.push({
          path: change.path,
          kind: change.kind,
          action: actionOf(current !== undefined, content !== undefined),
        });
      } catch (error) {
        files.push(fileFailure(change.path, change.kind, error));
      }
      options.onProgress?.({ done: ++done, total: send.length, path: change.path });
    });
  } finally {
    await writeManifest(dir, manifest);
  }
  return { workspace, files: sorted(files), dryRun: false };
}

function sorted(files: FileResult[]): FileResult[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
