/**
 * What a publish would change, as `planPublish` reads it and `applyPublish`, its journal and the report of a cut
 * publish use it.
 */
import type { Shop, Theme } from '@storefront-platform/sdk';
import type { FileKind } from './layout.js';
import type { RemoteFile } from './remote.js';
import type { FileAction } from './results.js';

/** A file production will receive. */
export interface PublishChange {
  path: string;
  kind: FileKind;
  name: string;
  action: Extract<FileAction, 'created' | 'updated' | 'deleted'>;
}

/** What publishing would change. */
export interface PublishPlan {
  shop: Shop;
  production: Theme;
  development: Theme;
  /** Empty when production already matches. */
  changes: PublishChange[];
  /** The files of each theme as read for the plan: writes are guarded by what production held then. */
  files: { production: Map<string, RemoteFile>; development: Map<string, RemoteFile> };
}
