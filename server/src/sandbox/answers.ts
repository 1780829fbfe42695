/** The control API's answers, and the error body a fault answers with: the API's own error shape. */
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

/** The API's error body, `{"_class":["errors"],"message":…}`. */
export const failure = (status: number, message: string, headers?: Record<string, string>) =>
  json(status, { _class: ['errors'], message }, headers);
