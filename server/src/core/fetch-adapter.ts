/** The fetch-standard form of the core, `(request: Request) => Promise<Response>`, for MSW and tests. */

import { concatBytes } from '../shared/concat-bytes.js';
import { readAtMost } from '../shared/read-at-most.js';
import { BodyTooLargeError, MAX_BODY_BYTES } from './body-limit.js';
import type { CoreHandler, CoreRequest } from './types.js';

/** Reads a body stream up to the shell cap, so that an endless upload is refused rather than buffered. */
async function readCapped(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const declared = Number(request.headers.get('content-length'));
  if (declared > MAX_BODY_BYTES) throw new BodyTooLargeError();
  const chunks: Uint8Array[] = [];
  if (!(await readAtMost(request.body, MAX_BODY_BYTES, (chunk) => chunks.push(chunk)))) throw new BodyTooLargeError();
  return concatBytes(chunks);
}

/** Adapts a {@link CoreHandler} to `fetch`'s `Request`/`Response`. */
export function toFetchHandler(handle: CoreHandler): (request: Request) => Promise<Response> {
  return async (request) => {
    // Read once, whoever asks (a stream can be read only once), like the Express shell's.
    let body: Promise<Uint8Array> | undefined;
    const core: CoreRequest = {
      method: request.method.toUpperCase(),
      url: new URL(request.url),
      headers: request.headers,
      body: () => {
        body ??= readCapped(request);
        return body;
      },
    };
    const response = await handle(core);
    const empty =
      core.method === 'HEAD' || response.body === undefined || response.status === 204 || response.status === 304;
    return new Response(empty ? null : (response.body as BodyInit), {
      status: response.status,
      headers: response.headers,
    });
  };
}
