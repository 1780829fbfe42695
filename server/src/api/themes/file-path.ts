/**
 * The file-name rule templates and assets share: 1–2 path segments of `[A-Za-z0-9._-]`. The narrow
 * alphabet is the whole defence against path tricks (`../`, `%2F`, backslashes, NUL, absolute paths):
 * such a name can be placed in a URL or looked up without any further escaping.
 */

import { API_LIMITS } from '@storefront-platform/sdk/internal';

/** Longest accepted file name, in characters. */
export const MAX_FILE_NAME_LENGTH = API_LIMITS.fileNameLength;

const SEGMENT = /^[A-Za-z0-9._-]+$/;
const DOTS_ONLY = /^\.+$/;

/** A file name split at its last dot: `partials/cart.html` → stem `partials/cart`, extension `html` (lower case). */
export interface FilePath {
  fileName: string;
  stem: string;
  extension: string;
}

/**
 * Checks `value` against the shared rule and splits it; returns the message of a 422 on `file_name`
 * when it does not pass.
 */
export function parseFilePath(value: unknown): FilePath | string {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_FILE_NAME_LENGTH) return `must be at most ${MAX_FILE_NAME_LENGTH} characters`;
  const segments = value.split('/');
  if (segments.length > 2) return 'must have at most one folder (e.g. "partials/cart.html")';
  for (const segment of segments) {
    if (segment === '') return 'must not start or end with "/" nor contain "//"';
    if (!SEGMENT.test(segment)) return 'may contain only letters, digits, ".", "_", "-" and one "/"';
    if (DOTS_ONLY.test(segment)) return 'must not contain "." or ".." segments';
  }
  const last = segments[segments.length - 1]!;
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return 'must have a name and an extension (e.g. "layout.html")';
  return {
    fileName: value,
    stem: value.slice(0, value.length - (last.length - dot)),
    extension: last.slice(dot + 1).toLowerCase(),
  };
}
