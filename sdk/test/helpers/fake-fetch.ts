/**
 * A `fetch` over hand-written routes, for tests that need exact control of what the "server" sends. It records
 * every request (method, URL, headers, body) so that tests can count and inspect them.
 */

export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
}

export type Route = (request: SentRequest) => Response | Promise<Response>;

/** JSON response helper; `type` defaults to HAL. */
export function json(body: unknown, init: ResponseInit & { type?: string } = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', init.type ?? 'application/hal+json; charset=utf-8');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/**
 * `routes` maps `"METHOD absolute-url"` to a response maker; a route may also be a plain value (served as JSON).
 * Unknown routes answer 404 with the API's error body.
 */
export function fakeFetch(routes: Record<string, Route | object>) {
  const requests: SentRequest[] = [];
  // Called as ky calls it, with a `Request`, or as plain code does, with a URL and options.
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const sent = new Request(input, init);
    const body = sent.body ? await sent.text() : undefined;
    const request: SentRequest = { method: sent.method, url: sent.url, headers: sent.headers, body };
    requests.push(request);
    sent.signal.throwIfAborted();
    const route = routes[`${request.method} ${request.url}`];
    if (route === undefined) return json({ _class: ['errors'], message: 'Not found' }, { status: 404 });
    return typeof route === 'function' ? (route as Route)(request) : json(route);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}
