/**
 * The other way of `watch`: what changed on the server (a colleague's push, an edit in the explorer) brought into
 * the folder as it happens. The theme is read again every interval with a conditional GET, which the SDK's HTTP
 * cache sends with the theme's ETag: while nothing changed, that costs one 304 and no body. When the theme did
 * change, each file the server changed since last seen is written into the folder unless the folder changed it
 * too, which is reported as a conflict and left alone (pull --merge, or push --force, settles it).
 */
import type { Theme } from '@storefront-platform/sdk';
import { recordBases } from './base-copies.js';
import { baseOf } from './changes.js';
import { readInside, removeInside, writeInside } from './confined.js';
import { md5 } from './digest.js';
import type { FileFilter } from './file-filter.js';
import { writeManifest } from './manifest.js';
import { contentOf, readRemote } from './remote.js';
import { actionOf, type FileResult } from './results.js';
import type { Workspace } from './workspace.js';

/** What a look at the server found: `unchanged` (a 304), else the files written into the folder or left alone. */
export type ServerLook = { unchanged: true } | { unchanged: false; pulled: FileResult[]; conflicts: FileResult[] };

const CHANGED_MEANWHILE =
  "changed on the server and saved here while it downloaded: the folder's copy is kept (pull --merge, or push --force)";

/**
 * Reads the theme again (conditionally) and brings its changes into the folder of `workspace`, whose theme, files
 * as last seen and manifest are brought up to date. `filter` leaves files out.
 */
export async function pullServerChanges(
  workspace: Workspace,
  filter: FileFilter,
  signal?: AbortSignal,
): Promise<ServerLook> {
  const fresh: Theme = await workspace.theme.follow('self', undefined, signal ? { signal } : {});
  if (fresh.response?.revalidated) return { unchanged: true };
  workspace.theme = fresh;
  const { dir, manifest, remote } = workspace;
  const { files: now, refused } = readRemote(fresh);
  // Held, not absent (a case twin listed first, a size past the API's limits): never taken for deleted there.
  const held = new Set(refused.flatMap((refusal) => (refusal.path ? [refusal.path] : [])));
  const pulled: FileResult[] = [];
  const conflicts: FileResult[] = [];
  let moved = false;
  for (const path of new Set([...remote.keys(), ...now.keys()])) {
    const [before, there] = [remote.get(path), now.get(path)];
    if (before?.md5 === there?.md5 || !filter(path) || held.has(path)) continue;
    const kind = (there ?? before)!.kind;
    const base = manifest.files[path];
    const bytes = await readInside(dir, path).catch(() => undefined);
    const here = bytes ? md5(bytes) : undefined;
    if (there) remote.set(path, there);
    else remote.delete(path);
    moved = true;
    if (here === there?.md5) {
      // Both sides hold the same now: it is the base.
      if (there) manifest.files[path] = baseOf(there);
      else delete manifest.files[path];
      continue;
    }
    if (here !== base?.md5) {
      const message = there
        ? "changed on the server too: the folder's copy is kept (pull --merge, or push --force)"
        : 'deleted on the server while changed here: kept (push sends it again)';
      conflicts.push({ path, kind, action: 'conflict', message });
      continue;
    }
    try {
      if (there) {
        const content = await contentOf(there, signal);
        // A save made while the server's copy downloaded is the developer's newest work: kept, as a conflict.
        const latest = await readInside(dir, path).catch(() => undefined);
        if ((latest ? md5(latest) : undefined) !== here) {
          conflicts.push({ path, kind, action: 'conflict', message: CHANGED_MEANWHILE });
          continue;
        }
        await writeInside(dir, path, content, { replace: true });
        manifest.files[path] = baseOf(there);
      } else {
        await removeInside(dir, path);
        delete manifest.files[path];
      }
      pulled.push({ path, kind, action: actionOf(here !== undefined, there !== undefined) });
    } catch (error) {
      pulled.push({ path, kind, action: 'failed', message: (error as Error).message });
    }
  }
  if (moved) {
    await writeManifest(dir, manifest);
    await recordBases(dir, manifest, remote);
  }
  return { unchanged: false, pulled, conflicts };
}
