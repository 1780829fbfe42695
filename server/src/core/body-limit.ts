/**
 * The most bytes a shell reads of a request body. Endpoints have smaller limits of their own (64 KiB
 * templates, 1 MiB assets as base64); this cap only stops a shell from buffering an unbounded upload.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Thrown by `CoreRequest.body()` when the body exceeds {@link MAX_BODY_BYTES}; the core answers 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit = MAX_BODY_BYTES) {
    super(`Request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}
