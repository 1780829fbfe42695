/**
 * What a publish would change, as `planPublish` reads it and `applyPublish`, its journal and the report of a cut
 * publish use it.
 */
import type { Shop, Theme } from '@storefront-platform/sdk';
import { md5 } from './digest.js';
import type { FileKind } from './layout.js';
import type { RemoteFile } from './remote.js';
import type { FileAction } from './results.js';

/**
 * Where production's new contents come from when not the development theme's file at the same path: the text of
 * a merge, or the file at another path of either theme (a rename on one side, followed by the other's change).
 */
export type ChangeSource = { text: string } | { theme: 'development' | 'production'; path: string };

/** A file production will receive. */
export interface PublishChange {
  path: string;
  kind: FileKind;
  name: string;
  action: Extract<FileAction, 'created' | 'updated' | 'deleted'>;
  /** Absent: the development theme's file at `path` (or its absence, for a deletion). */
  source?: ChangeSource;
  /**
   * How it came about, when not a plain copy of a change made in the development theme only: `merged` (both
   * themes changed it, in different lines), `renamed` (renamed on one side, changed on the other), `ours` (a
   * conflict that `--ours` settled for the development theme).
   */
  how?: 'merged' | 'renamed' | 'ours';
}

/**
 * What one side did to a file since the base: `renamed` (deleted, and its contents added under another name, which
 * the conflict's reason gives); `present`/`absent` when no base is recorded.
 */
export type SideChange = 'created' | 'updated' | 'deleted' | 'renamed' | 'present' | 'absent';

/** A file changed on both sides in ways that cannot be combined: nothing is published while one is left. */
export interface PublishConflict {
  path: string;
  kind: FileKind;
  /** What the development theme did to it since the base. */
  development: SideChange;
  /** What production did to it since the base (the merchant, a colleague). */
  production: SideChange;
  /** Why it cannot be merged. */
  reason: string;
  /** For a template changed on both sides in the same lines: each such region, both sides' lines. */
  regions?: { development: string; production: string }[];
}

/** What publishing would change. */
export interface PublishPlan {
  shop: Shop;
  production: Theme;
  development: Theme;
  /** Empty when production already holds everything of the development theme. */
  changes: PublishChange[];
  /** Files changed on both sides that cannot be combined; the publish stops unless `--ours` or `--theirs`. */
  conflicts: PublishConflict[];
  /** The conflicts `--ours` or `--theirs` settled (listed, not stopped on). */
  resolved: PublishConflict[];
  /** Whether the folder had a base recorded for these themes; without it, every difference is a conflict. */
  based: boolean;
  /** The files of each theme as read for the plan: writes are guarded by what production held then. */
  files: { production: Map<string, RemoteFile>; development: Map<string, RemoteFile> };
}

/** The MD5 of what production holds once `change` is made; `null` for a deletion. */
export function targetOf(change: PublishChange, files: PublishPlan['files']): string | null {
  if (change.action === 'deleted') return null;
  const { source } = change;
  if (source && 'text' in source) return md5(source.text);
  return (source ? files[source.theme].get(source.path) : files.development.get(change.path))?.md5 ?? null;
}
