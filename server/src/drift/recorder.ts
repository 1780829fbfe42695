/**
 * The wire under the SDK: a `fetch` that keeps each GET's status, headers and body, so that drift judges what
 * the API sent (a header the SDK does not surface, a body it refused) while the SDK does the reading. Request
 * headers are not kept but for the validators sent: no credential is ever held here.
 */

/** One GET as it went on the wire. */
export interface Exchange {
  url: string;
  status: number;
  headers: Headers;
  /** The body's text ('' for none). */
  text: string;
  /** The validators the request carried (`If-None-Match`, `If-Modified-Since`). */
  conditional: { ifNoneMatch: string | null; ifModifiedSince: string | null };
}

/** A recording `fetch` and what it saw, the latest exchange per URL. */
export class Recorder {
  readonly #exchanges = new Map<string, Exchange>();

  constructor(readonly base: typeof fetch = (input, init) => globalThis.fetch(input, init)) {}

  readonly fetch: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const response = await this.base(input, init);
    if (request.method !== 'GET') return response;
    const conditional = {
      ifNoneMatch: request.headers.get('if-none-match'),
      ifModifiedSince: request.headers.get('if-modified-since'),
    };
    const text = response.status === 304 ? '' : await response.clone().text();
    this.#exchanges.set(request.url, {
      url: request.url,
      status: response.status,
      headers: response.headers,
      text,
      conditional,
    });
    return response;
  };

  /** The latest exchange with `url`. */
  last(url: string): Exchange | undefined {
    return this.#exchanges.get(url);
  }
}
