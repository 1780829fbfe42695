/** A scripted token endpoint behind an injected `fetch`, recording every request it gets. */

export interface TokenCall {
  url: string;
  headers: Headers;
  params: URLSearchParams;
}

export type Reply = { status?: number; body: unknown; delay?: number };

export function fakeTokenEndpoint(reply: (call: TokenCall, index: number) => Reply) {
  const calls: TokenCall[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const call = { url: request.url, headers: request.headers, params: new URLSearchParams(await request.text()) };
    calls.push(call);
    const { status = 200, body, delay = 5 } = reply(call, calls.length - 1);
    await new Promise((resolve) => setTimeout(resolve, delay));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, calls };
}

/** A success body as the reference server sends it. */
export function tokenBody(accessToken: string, expiresIn = 3600, scopes = 'admin') {
  return { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn, scopes, scope: scopes };
}
