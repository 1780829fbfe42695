/** Raised by a store for a misuse of the store itself (a missing row to update, a taken id, a closed store). */
export class StoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** The data file (or one of its collection files) cannot be read or parsed; nothing was changed on disk. */
export class StoreFileError extends StoreError {
  constructor(
    readonly path: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${message}`, options);
    this.name = 'StoreFileError';
  }
}
