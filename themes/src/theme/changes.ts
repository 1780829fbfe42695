/**
 * What changed on each side since the folder and the server last agreed, file by file: the three-way
 * comparison of the manifest (the common base), the folder and the theme, by MD5.
 */
import type { FileKind } from './layout.js';
import type { LocalFile } from './local.js';
import type { BaseEntry } from './manifest.js';
import type { RemoteFile } from './remote.js';

/** How one side differs from the base. */
export type Side = 'added' | 'changed' | 'deleted';

/** A file that changed on at least one side. */
export interface FileChange {
  path: string;
  kind: FileKind;
  /** The API's `file_name`. */
  name: string;
  /** The change in the folder, if any. */
  local?: Side;
  /** The change on the server, if any. */
  remote?: Side;
  /** Changed on both sides, differently: neither side can win without `--force`. */
  conflict: boolean;
}

type Digested = { md5: string } | undefined;

/** A file as one side has it: enough to compare (the base's entry, the folder's file, the server's). */
type Compared = Pick<RemoteFile, 'kind' | 'name' | 'md5'>;

function sideOf(base: Digested, now: Digested): Side | undefined {
  if (!base) return now ? 'added' : undefined;
  if (!now) return 'deleted';
  return now.md5 === base.md5 ? undefined : 'changed';
}

/** The files that changed on either side, by path; a file changed the same way on both sides is not a change. */
export function compare(
  base: Record<string, BaseEntry>,
  local: ReadonlyMap<string, LocalFile>,
  remote: ReadonlyMap<string, Compared>,
): FileChange[] {
  const paths = new Set([...Object.keys(base), ...local.keys(), ...remote.keys()]);
  const changes: FileChange[] = [];
  for (const path of [...paths].sort()) {
    const [was, here, there] = [base[path], local.get(path), remote.get(path)];
    const localSide = sideOf(was, here);
    const remoteSide = sideOf(was, there);
    if (!localSide && !remoteSide) continue;
    // Both sides arrived at the same bytes (or both deleted): nothing to send either way.
    if (localSide && remoteSide && here?.md5 === there?.md5) continue;
    const file = (here ?? there ?? was)!;
    changes.push({
      path,
      kind: file.kind,
      name: file.name,
      ...(localSide ? { local: localSide } : {}),
      ...(remoteSide ? { remote: remoteSide } : {}),
      conflict: localSide !== undefined && remoteSide !== undefined,
    });
  }
  return changes;
}

/** A remote file as the base both sides now share. */
export function baseOf(file: RemoteFile, md5 = file.md5): BaseEntry {
  const { kind, name, id, updated_on } = file;
  // Only template writes are sent with `If-Match`.
  const etag = file.kind === 'template' ? file.entity.response?.headers.get('etag') : undefined;
  return { kind, name, id, updated_on, md5, links: file.entity.toJSON()._links, ...(etag ? { etag } : {}) };
}

/**
 * The base brought up to date where both sides agree: a file identical in the folder and on the server takes
 * the server's id and `updated_on` (a folder switched to another theme, a change made on both sides alike);
 * a file on neither side leaves the base.
 */
export function settle(
  base: Record<string, BaseEntry>,
  local: ReadonlyMap<string, LocalFile>,
  remote: ReadonlyMap<string, RemoteFile>,
): Record<string, BaseEntry> {
  const settled: Record<string, BaseEntry> = {};
  for (const [path, entry] of Object.entries(base)) if (local.has(path) || remote.has(path)) settled[path] = entry;
  for (const [path, there] of remote) if (local.get(path)?.md5 === there.md5) settled[path] = baseOf(there);
  return settled;
}

/** The words for a change, as status and the summaries say it. */
export function describeChange(change: FileChange): string {
  if (change.conflict) return `conflict (${change.local} here, ${change.remote} on the server)`;
  return change.local ? `${change.local} here` : `${change.remote} on the server`;
}
