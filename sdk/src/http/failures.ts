/**
 * ky's failures as the SDK's typed errors. Inside ky (its hooks, `shouldRetry`) failures are ky's own: an
 * `HTTPError`, a `TimeoutError`, what `fetch` threw (which ky 2 wraps in its `NetworkError`). What leaves the
 * client is one error family: `HttpError` and its subclasses, `TimeoutError`, `NetworkError`, with secrets redacted.
 * A user's ky 2 instance throws errors of its own copy of ky: they are recognised by name, as ky's guards do.
 */
import { isHTTPError, isTimeoutError } from 'ky';
import { createHttpError } from '../errors/create-http-error.js';
import type { HttpError } from '../errors/http-error.js';
import { NetworkError } from '../errors/network-error.js';
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { type BodyLimit, limitOf } from './body-limit.js';
import { headerRecord, parseBody } from './media-type.js';
import { bodyText } from './response-body.js';

/** Rejections of `fetch` itself (no response), told apart from errors that hooks throw. */
const networkFailures = new WeakSet<object>();

/** Typed errors already made of ky's failures: a body not read within its attempt can be read only once. */
const typed = new WeakMap<object, unknown>();

/** What a failed request was, for its typed error. */
export interface FailedRequest {
  /** Upper-case method. */
  method: string;
  url: string;
  /** The limit per attempt, for a `TimeoutError`. */
  timeout: number | false;
  /** The most bytes read of an error's body. */
  maxResponseSize: BodyLimit;
}

/** What to throw for a rejection of `fetch` within an attempt: the rejection itself, remembered as a network failure. */
export function networkFailure(error: unknown, request: Pick<FailedRequest, 'method' | 'url'>): unknown {
  if (typeof error !== 'object' || error === null)
    return networkFailure(new NetworkError({ ...request, cause: error }), request);
  networkFailures.add(error);
  return error;
}

/**
 * The rejection of `fetch` within an attempt that `error` is, or that ky 2's `NetworkError` wraps (named like the
 * SDK's `NetworkError`, which a hook may throw); `undefined` for any other error.
 */
function fetchRejection(error: unknown): object | undefined {
  // A WeakSet holds objects only, and answers `false` for anything else.
  if (networkFailures.has(error as object)) return error as object;
  const wrapped = error instanceof Error && error.name === 'NetworkError' && !(error instanceof StorefrontError);
  const cause = wrapped ? (error.cause as object) : undefined;
  return networkFailures.has(cause!) ? cause : undefined;
}

/** Whether `error` is ky's timeout of an attempt (named like the SDK's `TimeoutError`, which a hook may throw). */
export function isAttemptTimeout(error: unknown): boolean {
  return isTimeoutError(error) && !(error instanceof StorefrontError);
}

/**
 * Whether `error` is the failure of an attempt (an error status, a timeout, no response), which another attempt
 * may not meet. Anything else thrown in ky's pipeline, an error of a hook (a token request's `OAuthError`, a
 * `TypeError`), is not: ky would retry it all the same.
 */
export function isAttemptFailure(error: unknown): boolean {
  return isHTTPError(error) || isAttemptTimeout(error) || fetchRejection(error) !== undefined;
}

/**
 * The typed error of a failed response, its body read (within the attempt, when it had one) and parsed; a
 * {@link ResponseTooLargeError} when the body is over `limit`, or over 10 MiB (see `limitOf`).
 */
export async function responseError(
  method: string,
  url: string,
  response: Response,
  limit: BodyLimit,
): Promise<HttpError | ResponseTooLargeError> {
  let text = '';
  try {
    text = await bodyText(response, limitOf(response.status, limit), { method, url });
  } catch (error) {
    if (error instanceof ResponseTooLargeError) return error;
    // A body cut short: the status says enough.
  }
  return createHttpError({
    method,
    url,
    status: response.status,
    statusText: response.statusText,
    headers: headerRecord(response.headers),
    body: parseBody(text, response.headers.get('content-type')),
  });
}

/** The typed error of a failure of ky's (itself when it is not one: an abort's reason, a hook's error). */
export async function typedFailure(error: unknown, request: FailedRequest): Promise<unknown> {
  if (!isAttemptFailure(error)) return error;
  const key = error as object;
  if (!typed.has(key)) {
    const { method, url } = request;
    let made: unknown = error;
    if (isHTTPError(error)) made = await responseError(method, url, error.response, request.maxResponseSize);
    else if (isAttemptTimeout(error))
      made = new TimeoutError({ method, url, timeout: request.timeout || 0, cause: error });
    else {
      const rejection = fetchRejection(error);
      made = rejection instanceof NetworkError ? rejection : new NetworkError({ method, url, cause: rejection });
    }
    typed.set(key, made);
  }
  return typed.get(key);
}
