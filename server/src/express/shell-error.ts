import type { CoreResponse } from '../core/types.js';
import { HttpError } from '../http/http-error.js';
import { respondError } from '../http/respond.js';

/**
 * An error the shell answers itself, before or after the core (an unreadable request, a bug), with the core's
 * error body and headers, named by `requestId` as the core's are. No clock but the system's: the shell has none
 * of its own.
 */
export function shellError(method: string, status: number, message: string, requestId: string): CoreResponse {
  const exchange = { method, headers: { get: () => null }, requestId };
  return respondError(exchange, new HttpError(status, message), Date.now());
}
