/**
 * One file written to a theme, one request each: a template created or updated (guarded by `If-Match` and
 * `last_updated_on`), an asset uploaded (a same-named one is replaced), a file deleted. Push, watch and publish all
 * write this way.
 */
import {
  type FollowOptions,
  NotFoundError,
  PreconditionFailedError,
  type Theme,
  ValidationError,
} from '@storefront-platform/sdk';
import { CliError, ExitCode } from '../errors.js';
import { quoted } from '../printable.js';
import { md5 } from './digest.js';
import type { FileKind } from './layout.js';
import type { BaseEntry } from './manifest.js';
import { type RemoteFile, remoteAsset, remoteTemplate } from './remote.js';

/**
 * The file a write's answer describes, once checked to be the file written: its name becomes the key of the
 * manifest and a path in the folder, so an answer naming another file (`../x.html`) is refused, not recorded.
 */
function answered(upload: Upload, file: RemoteFile): RemoteFile {
  if (file.name !== upload.name || file.path !== upload.path) {
    throw new CliError(
      `the server answered the write of ${upload.path} with another file, ${quoted(file.name)}: not recorded`,
    );
  }
  return file;
}

/** A write refused because the server's copy changed after the one the edit is based on. */
export class ConflictError extends CliError {
  constructor(
    readonly path: string,
    message = 'changed on the server too',
  ) {
    super(message, ExitCode.conflicts);
    this.name = 'ConflictError';
  }
}

/** What to write: a file's new contents, or `undefined` to delete it. */
export interface Upload {
  kind: FileKind;
  name: string;
  path: string;
  /** A template's body or an asset's bytes; `undefined` deletes the file. */
  content: string | Uint8Array | undefined;
}

/** A file as a write left it. */
export interface Written {
  /** The file as now stored; `undefined` once deleted (also when another run had deleted it already). */
  file: RemoteFile | undefined;
  /** The server held this content already, so the write changed nothing (a run cut short, or another one, sent it). */
  unchanged: boolean;
}

/**
 * The version of a file an edit is based on, as the server named it: its `updated_on`, which is exact to the
 * millisecond (the server moves it on every write), and the strong `ETag` of its representation when a response gave
 * one. Epoch seconds are never sent: a change made within the same second would pass them.
 */
export interface Guard {
  updated_on: string;
  etag?: string;
}

/**
 * The guard of a write of `current` (the file as last seen on the server), whose base in the manifest is `base`:
 * the base's ETag counts only while it names that same version.
 */
export function guardOf(base: BaseEntry | undefined, current: RemoteFile | undefined): Guard | undefined {
  if (!current) return undefined;
  const etag = base?.updated_on === current.updated_on ? base.etag : undefined;
  return etag ? { updated_on: current.updated_on, etag } : { updated_on: current.updated_on };
}

/**
 * The guard of a template created where none was seen: no template has been updated at the epoch, so the API's
 * create (an upsert by file name) refuses it once a template of that name exists, rather than overwriting it.
 */
export const CREATE_ONLY: Guard = { updated_on: '1970-01-01T00:00:00.000Z' };

const isStaleGuard = (error: unknown) =>
  error instanceof PreconditionFailedError ||
  (error instanceof ValidationError && error.errors.some((e) => e.field === 'updated_on'));

/**
 * Writes `upload` to `theme`, where `current` is the file as last seen there (`theme` is needed only to create a
 * file: updates and deletions follow the file's own links). Template writes carry `guard` (see {@link Guard}): its
 * ETag as `If-Match`, its `updated_on` as `last_updated_on`, so that a change made on the server since, however
 * soon after, is a {@link ConflictError}, never overwritten; `guard` absent (`--force`) writes whatever is there.
 * Resolves with the file as now stored. `signal` aborts the requests and their retries.
 */
export async function writeFile(
  theme: Theme | undefined,
  upload: Upload,
  current: RemoteFile | undefined,
  guard: Guard | undefined,
  signal?: AbortSignal,
): Promise<Written> {
  const { content } = upload;
  const options = signal ? { signal } : {};
  const changed = (file: RemoteFile | undefined): Written => ({ file, unchanged: false });
  if (content === undefined) {
    if (current) await deleteFile(current, guard, options);
    return changed(undefined);
  }
  const creator = () => {
    if (!theme) throw new Error(`${upload.path}: creating a file needs its theme`);
    return theme;
  };
  if (upload.kind === 'asset') {
    const data = Buffer.from(content).toString('base64');
    const created = await creator().follow('svc:create_theme_asset', { file_name: upload.name, data }, options);
    return changed(answered(upload, remoteAsset(created)));
  }
  const body = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
  if (current?.kind !== 'template') {
    // A guard without a current file is "create only" (see CREATE_ONLY): the API's create is an upsert by name.
    const fields = { file_name: upload.name, body, ...(guard ? { last_updated_on: guard.updated_on } : {}) };
    try {
      return changed(answered(upload, remoteTemplate(await creator().follow('svc:create_template', fields, options))));
    } catch (error) {
      if (guard && isStaleGuard(error)) throw new ConflictError(upload.path, 'created on the server meanwhile');
      throw error;
    }
  }
  const update = (guarded: Guard | undefined) =>
    current.entity.follow(
      'svc:update_template',
      guarded ? { body, last_updated_on: guarded.updated_on } : { body },
      guarded?.etag ? { ...options, ifMatch: guarded.etag } : options,
    );
  try {
    return changed(answered(upload, remoteTemplate(await update(guard))));
  } catch (error) {
    if (error instanceof NotFoundError) throw new ConflictError(upload.path, 'deleted on the server');
    if (!guard || !isStaleGuard(error)) throw error;
    // A retried write whose first attempt went through, or the same edit made there too: not a conflict.
    const now = answered(upload, remoteTemplate(await current.entity.follow('self', undefined, options)));
    if (now.md5 === md5(body)) return { file: now, unchanged: true };
    // The template is the version the edit is based on, but its representation changed (a server upgrade
    // that adds a link changes the ETag): the exact `updated_on` still guards the write.
    if (guard.etag && now.updated_on === guard.updated_on) {
      return changed(answered(upload, remoteTemplate(await update({ updated_on: guard.updated_on }))));
    }
    throw new ConflictError(upload.path);
  }
}

/**
 * Deletes a file; one already gone (another run, a retry whose first attempt went through) is deleted too. A
 * template whose ETag is known is deleted only if unchanged since: otherwise a {@link ConflictError}.
 */
async function deleteFile(file: RemoteFile, guard: Guard | undefined, options: FollowOptions): Promise<void> {
  // The API offers the link only where deleting is allowed: `layout.html` has none.
  if (file.kind === 'template' && !file.entity.can('svc:delete_template')) {
    throw new CliError(`${file.path} is required and cannot be deleted`);
  }
  try {
    if (file.kind === 'asset') {
      // An asset's file answers with its digest as ETag, which its deletion takes as If-Match.
      const ifMatch = guard?.etag ? { ...options, ifMatch: guard.etag } : options;
      await file.entity.follow('svc:delete_theme_asset', undefined, ifMatch);
    } else
      await file.entity.follow(
        'svc:delete_template',
        undefined,
        guard?.etag ? { ...options, ifMatch: guard.etag } : options,
      );
  } catch (error) {
    if (error instanceof PreconditionFailedError) throw new ConflictError(file.path);
    if (!(error instanceof NotFoundError)) throw error;
  }
}
