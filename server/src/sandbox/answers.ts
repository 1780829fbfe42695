/** The control API's answers, its errors in the API's own error shape. */
import type { CoreResponse } from '../core/types.js';
import { JSON_TYPE } from '../http/entity.js';

const encoder = new TextEncoder();

/** `body` as JSON, never cached. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): CoreResponse {
  return {
    status,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers },
    body: encoder.encode(JSON.stringify(body)),
  };
}

/**
 * The API's error body, `{"_class":["errors"],"message":…,"request_id":…}`, named by `requestId` in `X-Request-Id`
 * too, as the API's errors are.
 */
export const failure = (status: number, message: string, requestId: string, headers?: Record<string, string>) =>
  json(status, { _class: ['errors'], message, request_id: requestId }, { ...headers, 'x-request-id': requestId });
