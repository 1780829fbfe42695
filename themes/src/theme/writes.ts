/**
 * One file written to a theme, one request each: a template created or updated (guarded by `last_updated_on`),
 * an asset uploaded (a same-named one is replaced), a file deleted. Push, watch and publish all write this way.
 */
import { type FollowOptions, NotFoundError, type Theme, ValidationError } from '@storefront-platform/sdk';
import { CliError, ExitCode } from '../errors.js';
import { md5 } from './digest.js';
import type { FileKind } from './layout.js';
import { type RemoteFile, remoteAsset, remoteTemplate } from './remote.js';

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

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const isStaleGuard = (error: unknown) =>
  error instanceof ValidationError && error.errors.some((e) => e.field === 'updated_on');

/**
 * Writes `upload` to `theme`, where `current` is the file as last seen there (`theme` is needed only to create a
 * file: updates and deletions follow the file's own links). Templates carry the
 * `last_updated_on` of `guard` (the `updated_on` the edit is based on), so that a change made on the server
 * since is a {@link ConflictError}, never overwritten; `guard` absent (`--force`) writes whatever is there.
 * Resolves with the file as now stored. `signal` aborts the requests and their retries.
 */
export async function writeFile(
  theme: Theme | undefined,
  upload: Upload,
  current: RemoteFile | undefined,
  guard: string | undefined,
  signal?: AbortSignal,
): Promise<Written> {
  const { content } = upload;
  const options = signal ? { signal } : {};
  const changed = (file: RemoteFile | undefined): Written => ({ file, unchanged: false });
  if (content === undefined) {
    if (current) await deleteFile(current, options);
    return changed(undefined);
  }
  const creator = () => {
    if (!theme) throw new Error(`${upload.path}: creating a file needs its theme`);
    return theme;
  };
  if (upload.kind === 'asset') {
    const data = Buffer.from(content).toString('base64');
    return changed(
      remoteAsset(await creator().follow('svc:create_theme_asset', { file_name: upload.name, data }, options)),
    );
  }
  const body = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
  const last = guard === undefined ? {} : { last_updated_on: epochSeconds(guard) };
  try {
    if (current?.kind === 'template') {
      return changed(remoteTemplate(await current.entity.follow('svc:update_template', { body, ...last }, options)));
    }
    return changed(
      remoteTemplate(await creator().follow('svc:create_template', { file_name: upload.name, body, ...last }, options)),
    );
  } catch (error) {
    if (error instanceof NotFoundError && current) throw new ConflictError(upload.path, 'deleted on the server');
    if (!isStaleGuard(error) || current?.kind !== 'template') throw error;
    // A retried write whose first attempt went through, or the same edit made there too: not a conflict.
    const now = remoteTemplate(await current.entity.follow('self', undefined, options));
    if (now.md5 === md5(body)) return { file: now, unchanged: true };
    throw new ConflictError(upload.path);
  }
}

/** Deletes a file; one already gone (another run, a retry whose first attempt went through) is deleted too. */
async function deleteFile(file: RemoteFile, options: FollowOptions): Promise<void> {
  // The API offers the link only where deleting is allowed: `layout.html` has none.
  if (file.kind === 'template' && !file.entity.can('svc:delete_template')) {
    throw new CliError(`${file.path} is required and cannot be deleted`);
  }
  try {
    if (file.kind === 'asset') await file.entity.follow('svc:delete_theme_asset', undefined, options);
    else await file.entity.follow('svc:delete_template', undefined, options);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}
