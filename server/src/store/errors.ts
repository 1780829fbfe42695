/** Raised by a store for a misuse of the store itself (a missing row to update, a taken id, a closed store). */
export class StoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** The system error code (`ENOSPC`, …) of the first error in `error`'s chain of causes that has one. */
function systemCodeOf(error: unknown): string | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 10; at = at.cause, depth++) {
    const { code } = at as NodeJS.ErrnoException;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * A file of the data (the manifest, a collection's file, the journal, the lock) cannot be read, parsed or
 * written. A failed read changed nothing on disk; a failed write says what it left in its message.
 */
export class StoreFileError extends StoreError {
  /**
   * The system error code of the file operation that failed, when one did: `ENOSPC` (no space left: the disk or
   * the file system is full), `EDQUOT` (over quota), `EROFS` (read-only file system), `EACCES`, `EIO`, …; kept
   * from the error that caused this one, however deep, so that a caller can answer a full disk as such.
   */
  readonly code: string | undefined;

  constructor(
    readonly path: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${message}`, options);
    this.name = 'StoreFileError';
    this.code = systemCodeOf(options?.cause);
  }
}

/**
 * The store's database could not be reached, or did not confirm a write: not a bug, and nothing to fix in the
 * request. The API answers 503 with `Retry-After`; the token endpoint `temporarily_unavailable`.
 */
export class StoreUnavailableError extends StoreError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
