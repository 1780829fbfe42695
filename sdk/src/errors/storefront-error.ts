import type { ErrorCode } from './codes.js';

/** A hop of a chain of `follow` (`client.root().follow('svc:shops').follow('next')`), as its error names it. */
export interface FollowHop {
  /** The relation the hop followed, as written in the chain (`svc:shops`). */
  relation: string;
  /** Where it is in the chain: 1 for the first `follow`, counted from `client.root()` or from the entity. */
  position: number;
}

/** Base class of every error the SDK throws on purpose. Narrow with `instanceof` or by {@link ErrorCode}. */
export class StorefrontError extends Error {
  override name = 'StorefrontError';
  // Fields set by the constructors (here and in subclasses) are declared: defined fields would be emitted twice
  // in bundles.
  /** Stable machine-readable code. */
  declare readonly code: ErrorCode;
  /** The hop of a `follow` chain that failed, when the error ends one (its message names it too). */
  declare readonly hop?: FollowHop;
  /**
   * The id the server gave the request whose answer this error is (its `X-Request-Id`, which the server's log line
   * prints), named in the message too; absent when no answer came (a network failure, a timeout) or it had none.
   */
  declare readonly requestId?: string;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
