/**
 * Writes that fail because of the data's disk, not because of a bug: a full disk (or quota) and a disk the
 * server may not or cannot write (read-only, permissions, I/O errors). They are answered in the API's terms (507
 * and 503 with the error body; the token endpoint's 503 `temporarily_unavailable`) with one log line each, never
 * a 500 with a stack: the operator has a disk to fix, the client a request to retry later.
 */
import type { Store } from '../store/types.js';
import { HttpError } from './http-error.js';

/** Why a write failed on the disk: `full`, no space (or quota) left; `unwritable`, a disk the server cannot write. */
export interface DiskFailure {
  kind: 'full' | 'unwritable';
  /** The errno, e.g. `ENOSPC`. */
  code: string;
  /** The file or directory the failure names, when it names one. */
  path?: string;
}

const FULL = new Set(['ENOSPC', 'EDQUOT']);
const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'EIO']);

/** Causes followed at most: a chain is short, a cycle must not hang the answer. */
const MAX_DEPTH = 8;

/**
 * The disk failure behind `error`: its own `code`, or the first one along its `cause` chain (a store wraps the
 * file system's error); `undefined` for any other error.
 */
export function diskFailureOf(error: unknown): DiskFailure | undefined {
  let path: string | undefined;
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const { code, path: named, cause } = current as { code?: unknown; path?: unknown; cause?: unknown };
    if (typeof named === 'string') path ??= named;
    if (typeof code === 'string' && (FULL.has(code) || UNWRITABLE.has(code))) {
      const kind = FULL.has(code) ? 'full' : 'unwritable';
      return path === undefined ? { kind, code } : { kind, code, path };
    }
    current = cause;
  }
  return undefined;
}

/** The API's answer to a write that failed on the disk: 507 when it is full (RFC 4918 §11.5), 503 otherwise. */
export function diskFailureError(failure: DiskFailure): HttpError {
  return failure.kind === 'full'
    ? new HttpError(507, "Insufficient storage: the server's disk is full; nothing was written")
    : new HttpError(503, 'Service unavailable: the server cannot write its data; nothing was written');
}

/** The directory part of `path`, written out here: the core also runs in browsers (MSW), without `node:path`. */
function dirname(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return slash > 0 ? path.slice(0, slash) : path;
}

/** Where the data lives: the directory of a JSON-file store, else the directory the failure names. */
function dataDirectory(store: Store, failure: DiskFailure): string | undefined {
  const path = (store as Store & { path?: unknown }).path;
  if (typeof path === 'string') return dirname(path);
  return failure.path === undefined ? undefined : dirname(failure.path);
}

/**
 * The one log line of a write that failed on the disk, naming the data directory and what to do:
 * `storefront-server: POST /v1/… answered 507: no space left in the data directory /srv/data (ENOSPC); free some`.
 */
export function diskFailureLine(store: Store, failure: DiskFailure, request: string, status: number): string {
  const dir = dataDirectory(store, failure);
  const where = dir === undefined ? 'the data directory' : `the data directory ${dir}`;
  const problem =
    failure.kind === 'full'
      ? `no space left in ${where} (${failure.code}); free some space there`
      : `cannot write ${where} (${failure.code}); make it writable`;
  return `storefront-server: ${request} answered ${status}: ${problem}, nothing was written`;
}
