/** What a transfer did, file by file, and which errors end it rather than one file. */
import {
  HttpError,
  NetworkError,
  OAuthError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
} from '@storefront-platform/sdk';
import { CliError } from '../errors.js';
import type { FileKind } from './layout.js';
import { ConflictError } from './writes.js';

/**
 * What happened to one file on the side written to (the server for push and publish, the folder for pull);
 * `unchanged`: sent, but the server held that content already (an earlier push cut short, or another run,
 * had sent it), so nothing changed this time; `merged`: changed on both sides, the server's changes merged into the
 * folder's file (`pull --merge`); `conflict`: left alone, changed on both sides; `failed`: refused
 * (`message` says why), the others went on; `skipped`: a file of the theme that pull does not take (an unsafe
 * name, a size past the API's limits), or a file of the folder that push does not create on the server (a case
 * twin of another file); `message` says which.
 */
export type FileAction = 'created' | 'updated' | 'deleted' | 'unchanged' | 'merged' | 'conflict' | 'failed' | 'skipped';

/** One file of a transfer. */
export interface FileResult {
  path: string;
  kind: FileKind;
  action: FileAction;
  message?: string;
}

/** Reports the progress of a transfer: `done` of `total` files, `path` the last one finished. */
export type OnProgress = (progress: { done: number; total: number; path: string }) => void;

/** The action of a write on the side written to, from whether the file was there and whether it still is. */
export function actionOf(existed: boolean, exists: boolean): FileAction {
  return !exists ? 'deleted' : existed ? 'updated' : 'created';
}

/**
 * Whether the same request may well succeed later: the network or a timeout failed it, or the server answered 5xx,
 * 408 or 429. The client has already retried such a failure as its retry policy allows before it surfaces.
 */
export function isTransient(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    error instanceof ServerError ||
    (error instanceof HttpError && (error.status === 408 || error.status === 429))
  );
}

/**
 * The result of a file whose write threw, or a rethrow when the error is about the whole session (the server is
 * unreachable or refuses the token) rather than about this file (a body over the limit, an asset's bytes over the
 * API's, an undeletable file).
 */
export function fileFailure(path: string, kind: FileKind, error: unknown): FileResult {
  if (error instanceof ConflictError) return { path, kind, action: 'conflict', message: error.message };
  const aboutTheFile =
    error instanceof CliError ||
    error instanceof ResponseTooLargeError ||
    (error instanceof HttpError &&
      !(error instanceof OAuthError) &&
      !isTransient(error) &&
      error.status !== 401 &&
      error.status !== 403);
  if (!aboutTheFile) throw error;
  return { path, kind, action: 'failed', message: (error as Error).message };
}

/** How many files took each action. */
export function countActions(files: readonly FileResult[]): Record<FileAction, number> {
  const counts: Record<FileAction, number> = {
    created: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    merged: 0,
    conflict: 0,
    failed: 0,
    skipped: 0,
  };
  for (const file of files) counts[file.action]++;
  return counts;
}
