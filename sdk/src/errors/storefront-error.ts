import type { ErrorCode } from './codes.js';

/** Base class of every error the SDK throws on purpose. Narrow with `instanceof` or by {@link ErrorCode}. */
export class StorefrontError extends Error {
  override name = 'StorefrontError';
  /** Stable machine-readable code. */
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
