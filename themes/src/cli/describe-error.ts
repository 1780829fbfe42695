/**
 * Any error as one line a person can act on, with its exit code: what failed and what to do, never a stack.
 * The SDK's errors already carry no secret (tokens and client secrets are redacted), so they can be shown.
 */
import {
  ForbiddenError,
  HttpError,
  InvalidResponseError,
  NetworkError,
  OAuthError,
  ResponseTooLargeError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from '@storefront-platform/sdk';
import { CliError, ExitCode } from '../errors.js';
import { networkReason } from '../network-reason.js';
import { printable, printableWhole } from '../printable.js';

/** A server's error message is its own word: shown escaped (see printable.ts), at most this long. */
const SERVER_MESSAGE_LENGTH = 500;

export interface Described {
  message: string;
  exitCode: ExitCode;
}

const origin = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

/** What went wrong, in one line fit for a terminal: a server's words and file names included are escaped. */
export function describeError(error: unknown): Described {
  const described = describe(error);
  return { ...described, message: printableWhole(described.message) };
}

function describe(error: unknown): Described {
  const failure = (message: string) => ({ message, exitCode: ExitCode.failure });
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  // The limit is the API's own (MAX_DOCUMENT_BYTES): a larger answer is the server's fault, not the user's.
  if (error instanceof ResponseTooLargeError) {
    const url = error.url.split('?')[0];
    return failure(`the answer of ${url} is over ${error.limit} bytes, more than the API allows: not read`);
  }
  if (error instanceof NetworkError) {
    return failure(`cannot reach the server at ${origin(error.url)} (${networkReason(error.cause)}): is it running?`);
  }
  if (error instanceof TimeoutError) return failure(`the server at ${origin(error.url)} did not answer in time`);
  if (error instanceof OAuthError) {
    if (error.error === 'invalid_client') {
      return failure(`the server does not accept this app's client id and secret: run storefront-themes setup`);
    }
    if (error.error === 'invalid_grant') {
      return failure(
        `the server refused the sign-in (${error.errorDescription ?? error.error}): run storefront-themes login`,
      );
    }
    return failure(`the server refused the sign-in: ${printable(String(error.errorDescription ?? error.error))}`);
  }
  if (error instanceof UnauthorizedError)
    return failure('the server no longer accepts your login: run storefront-themes login');
  if (error instanceof ForbiddenError) {
    return failure(`your login may not do this (it needs the admin scope of the shop): ${printable(error.message)}`);
  }
  if (error instanceof ValidationError) {
    const fields = error.errors.map((e) => `${e.field} ${e.messages.join(', ')}`).join('; ');
    return failure(printable(fields || error.message, SERVER_MESSAGE_LENGTH));
  }
  // What the server sent is not the API's: say where and what, not what the tool then tripped on.
  if (error instanceof InvalidResponseError && error.problem) {
    return failure(
      `the server at ${origin(error.url)} answered ${error.method} ${error.url} with what is not the API's: ${printable(error.problem, SERVER_MESSAGE_LENGTH)}`,
    );
  }
  if (error instanceof HttpError) return failure(printable(error.message, SERVER_MESSAGE_LENGTH));
  // Other errors (the file system's name the path and what went wrong) say enough by their message.
  if (error instanceof Error) return failure(error.message || error.name);
  return failure(String(error));
}
