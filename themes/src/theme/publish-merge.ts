/**
 * The three-way comparison of a publish: for each file, what the development theme and production each did since
 * their base (see publish-base.ts). A change on one side only is taken as it is (the development theme's is
 * published, production's is kept); a template changed on both sides is merged line by line with `merge3` (the
 * merge of `pull --merge`); anything else changed on both sides is a conflict.
 *
 * Renames: the API has no rename, so a rename is a file deleted on one side and a file added on that same side
 * with the digest the deleted one had in the base (and the only such pair for that digest), under a name the other
 * side does not hold. As in `git merge`: when the other side changed the file under its old name, that change
 * follows it to its new name; when it deleted the file, or renamed it to another name, both decisions cannot
 * stand (taking either silently loses the other: a page published twice, a page the merchant removed brought
 * back), so it is a conflict, listed under the old name. The same rename on both sides leaves the new name equal
 * on both, and the same deletion the old name absent from both: nothing to do.
 */
import { md5 } from './digest.js';
import { conflictRegions, merge3 } from './merge.js';
import type { BaseFile } from './publish-base.js';
import type { PublishChange, PublishConflict, SideChange } from './publish-plan.js';
import type { RemoteFile } from './remote.js';
import { actionOf } from './results.js';

/** What {@link mergeThemes} compares. */
export interface ThemeMergeInput {
  /** The base; `undefined` when none is recorded: then every difference is a conflict. */
  base: ReadonlyMap<string, BaseFile> | undefined;
  development: ReadonlyMap<string, RemoteFile>;
  production: ReadonlyMap<string, RemoteFile>;
  /** The base's text of a template, by MD5, if kept. */
  text(md5: string): Promise<string | undefined>;
  /** Settles every conflict for the development theme (`ours`) or production (`theirs`). */
  favour?: 'ours' | 'theirs';
}

/** What a publish will write, and what it cannot decide alone. */
export interface ThemeMerge {
  changes: PublishChange[];
  conflicts: PublishConflict[];
  /** Conflicts settled by `favour`. */
  resolved: PublishConflict[];
}

/** The plain copy of the development theme's file at `path` (or of its absence) over production's. */
function copyOf(path: string, from: RemoteFile | undefined, to: RemoteFile | undefined): PublishChange {
  const file = (from ?? to)!;
  const action = actionOf(to !== undefined, from !== undefined) as PublishChange['action'];
  return { path, kind: file.kind, name: file.name, action };
}

function sideOf(based: boolean, base: BaseFile | undefined, now: RemoteFile | undefined): SideChange {
  if (!based) return now ? 'present' : 'absent';
  return !now ? 'deleted' : !base ? 'created' : 'updated';
}

/** Why a file changed on both sides cannot be merged, when it is not a template both sides still hold. */
function reasonOf(base: BaseFile | undefined, development?: RemoteFile, production?: RemoteFile): string {
  if (!development) return 'deleted in the development theme, changed in production';
  if (!production) return 'changed in the development theme, deleted in production';
  if (!base) return 'created on both sides, with different contents';
  return 'an asset changed on both sides: its bytes cannot be merged';
}

/**
 * Renames on side `from` (the other being `other`): old path → new path, each the only file deleted (from the
 * base) and the only one added with that digest on that side, the new path unknown to the base and to the other side.
 */
function renamesOn(
  base: ReadonlyMap<string, BaseFile>,
  from: ReadonlyMap<string, RemoteFile>,
  other: ReadonlyMap<string, RemoteFile>,
): Map<string, string> {
  const added = new Map<string, string[]>();
  for (const [path, file] of from) {
    if (base.has(path) || other.has(path)) continue;
    added.set(file.md5, [...(added.get(file.md5) ?? []), path]);
  }
  const deleted = new Map<string, string[]>();
  for (const [path, file] of base) {
    if (!from.has(path)) deleted.set(file.md5, [...(deleted.get(file.md5) ?? []), path]);
  }
  const pairs = new Map<string, string>();
  for (const [digest, [old, ...more]] of deleted) {
    const [renamed, ...others] = added.get(digest) ?? [];
    if (old && renamed && !more.length && !others.length && base.get(old)!.kind === from.get(renamed)!.kind) {
      pairs.set(old, renamed);
    }
  }
  return pairs;
}

/** Compares both themes with their base; see the module's comment. */
export async function mergeThemes(input: ThemeMergeInput): Promise<ThemeMerge> {
  const { base, development, production, favour } = input;
  const changes: PublishChange[] = [];
  const conflicts: PublishConflict[] = [];
  const resolved: PublishConflict[] = [];
  const handled = new Set<string>();
  /** Stops on `found`, or settles it by `favour`: `ours` makes production equal to the development theme at `paths`. */
  const settle = (found: PublishConflict, paths: readonly string[]) => {
    (favour ? resolved : conflicts).push(found);
    if (favour !== 'ours') return;
    for (const path of paths) {
      const [here, there] = [development.get(path), production.get(path)];
      if (here?.md5 !== there?.md5) changes.push({ ...copyOf(path, here, there), how: 'ours' });
    }
  };
  if (base) {
    const renamed = {
      development: renamesOn(base, development, production),
      production: renamesOn(base, production, development),
    };
    for (const old of new Set([...renamed.development.keys(), ...renamed.production.keys()])) {
      const [here, there] = [renamed.development.get(old), renamed.production.get(old)];
      // Renamed on one side, deleted or renamed elsewhere on the other: both decisions cannot stand, and taking
      // either silently loses the other (a page twice, a page the merchant removed back), so, as git, a conflict.
      if ((here && !production.has(old)) || (there && !development.has(old))) {
        const sides = [
          here ? `renamed to ${here} in the development theme` : 'deleted in the development theme',
          there ? `${here ? 'to' : 'renamed to'} ${there} in production` : 'deleted in production',
        ];
        const found: PublishConflict = {
          path: old,
          kind: base.get(old)!.kind,
          development: here ? 'renamed' : 'deleted',
          production: there ? 'renamed' : 'deleted',
          reason: sides.join(', '),
        };
        const paths = [old, ...(here ? [here] : []), ...(there ? [there] : [])];
        settle(found, paths);
        for (const path of paths) handled.add(path);
      } else if (here) {
        // Renamed in the development theme, changed in production: production's version goes to the new name.
        const changed = production.get(old)!;
        if (changed.md5 === base.get(old)!.md5) continue;
        const file = development.get(here)!;
        changes.push(
          {
            path: here,
            kind: file.kind,
            name: file.name,
            action: 'created',
            source: { theme: 'production', path: old },
            how: 'renamed',
          },
          { ...copyOf(old, undefined, changed), how: 'renamed' },
        );
        handled.add(old).add(here);
      } else if (there) {
        // Renamed in production, changed in the development theme: that change goes to the new name.
        if (development.get(old)!.md5 === base.get(old)!.md5) continue;
        const file = production.get(there)!;
        const source = { theme: 'development' as const, path: old };
        changes.push({ path: there, kind: file.kind, name: file.name, action: 'updated', source, how: 'renamed' });
        handled.add(old).add(there);
      }
    }
  }
  const paths = [...new Set([...(base?.keys() ?? []), ...development.keys(), ...production.keys()])].sort();
  for (const path of paths) {
    if (handled.has(path)) continue;
    const [was, here, there] = [base?.get(path), development.get(path), production.get(path)];
    if (here?.md5 === there?.md5) continue;
    if (base) {
      // Production's own change (or none of the development theme's): production keeps it.
      if (here?.md5 === was?.md5) continue;
      if (there?.md5 === was?.md5) {
        changes.push(copyOf(path, here, there));
        continue;
      }
    }
    const conflict = (reason: string, regions?: PublishConflict['regions']): PublishConflict => ({
      path,
      kind: (here ?? there)!.kind,
      development: sideOf(base !== undefined, was, here),
      production: sideOf(base !== undefined, was, there),
      reason,
      ...(regions ? { regions } : {}),
    });
    let found: PublishConflict;
    if (!base) {
      found = conflict('no base recorded for this development theme: which side changed it is unknown');
    } else if (was?.kind === 'template' && here?.kind === 'template' && there?.kind === 'template') {
      const text = await input.text(was.md5);
      if (text === undefined) {
        found = conflict('changed on both sides, and no base text is kept here to merge them');
      } else {
        const [ours, theirs] = [here.entity.properties.body, there.entity.properties.body];
        const merged = merge3(text, ours, theirs, favour);
        if (merged.conflicts === 0 || favour) {
          if (merged.conflicts) resolved.push(conflict(`changed on both sides in ${merged.conflicts} same regions`));
          if (md5(merged.text) !== there.md5) {
            changes.push({ ...copyOf(path, here, there), source: { text: merged.text }, how: 'merged' });
          }
          continue;
        }
        const regions = conflictRegions(merged.text).map((r) => ({
          development: r.ours,
          production: r.theirs,
        }));
        found = conflict(`changed on both sides in the same lines (${merged.conflicts} regions)`, regions);
      }
    } else {
      found = conflict(reasonOf(was, here, there));
    }
    settle(found, [path]);
  }
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  for (const list of [changes, conflicts, resolved]) list.sort(byPath);
  return { changes, conflicts, resolved };
}
