/**
 * Answers read up to a limit: refused by their `Content-Length` before any byte is read, or as soon as the bytes
 * read (decoded, so a compressed bomb counts at its real size) pass the limit. A server can then make the tool
 * hold no more than the API's limits allow, whatever it sends.
 */
import { CliError } from '../errors.js';

/** An answer larger than the tool reads. */
export class OversizeError extends CliError {
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`the answer of ${url} is over ${limit} bytes, more than the API allows: not read`);
    this.name = 'OversizeError';
  }
}

/** The address shown: no query (it may hold a signature), no credentials. */
function shown(url: string): string {
  if (!URL.canParse(url)) return 'the server';
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname}`;
}

/**
 * `response` with a body that fails with an {@link OversizeError} once more than `limit` bytes came through;
 * throws it at once (the body cancelled, unread) when `Content-Length` declares more.
 */
export function cappedResponse(response: Response, limit: number): Response {
  const url = shown(response.url);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limit) {
    response.body?.cancel().catch(() => {});
    throw new OversizeError(url, limit);
  }
  if (!response.body) return response;
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new OversizeError(url, limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  const capped = new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL, and the SDK resolves relative links against it.
  Object.defineProperty(capped, 'url', { value: response.url });
  return capped;
}

/** The bytes of `response`, at most `limit` of them (else an {@link OversizeError}, no more read). */
export async function readCapped(response: Response, limit: number): Promise<Uint8Array> {
  return new Uint8Array(await cappedResponse(response, limit).arrayBuffer());
}

/**
 * A `fetch` for the SDK client whose answers are read to `limit` bytes at most: the SDK reads a JSON answer whole
 * before the tool sees it, so the cap has to sit below it.
 */
export function cappedFetch(limit: number): typeof fetch {
  return async (input, init) => cappedResponse(await globalThis.fetch(input, init), limit);
}
