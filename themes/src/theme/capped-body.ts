/**
 * An asset's bytes read up to the API's limit of one asset: refused by their `Content-Length` before any byte is
 * read, or as soon as the bytes read (decoded, so a compressed bomb counts at its real size) pass the limit. (Answers
 * of the SDK client are bounded by its `maxResponseSize`; a file is held to the tighter limit of its kind.)
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
