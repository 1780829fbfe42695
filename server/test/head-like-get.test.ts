/**
 * A HEAD is answered with the headers its GET gets (RFC 9110 §9.3.2), whoever answers the path: the API (every
 * resource reached from the root by its links), the OAuth pages and metadata, the explorer and its files, the
 * OpenAPI document, the health check. Among them what the shell adds: `Content-Length`, `Content-Encoding` when
 * the GET is gzipped, `Vary: Accept-Encoding`.
 */
import { describe, expect, it } from 'vitest';
import { clientToken, useTestServer } from './helpers/test-server.js';

const server = useTestServer({ products: 3, demo: { password: 'demo password' } });

/** The headers a HEAD must repeat (`Date` and the explorer page's nonce differ by design). */
const COMPARED = [
  'content-type',
  'content-length',
  'content-encoding',
  'vary',
  'etag',
  'last-modified',
  'cache-control',
  'allow',
];

/** The API's resources, from the root by their links (templates left out), at most `limit`. */
async function apiResources(baseUrl: string, token: string, limit: number): Promise<string[]> {
  const seen = new Set<string>([`${baseUrl}/`]);
  const queue = [`${baseUrl}/`];
  for (let next = queue.shift(); next !== undefined && seen.size < limit; next = queue.shift()) {
    const response = await fetch(next, { headers: { authorization: `Bearer ${token}` } });
    if (!response.headers.get('content-type')?.includes('json')) continue;
    const text = await response.text();
    for (const [, href] of text.matchAll(/"href":"([^"{]+)"/g)) {
      if (href!.startsWith(baseUrl) && !seen.has(href!) && seen.size < limit) {
        seen.add(href!);
        queue.push(href!);
      }
    }
  }
  return [...seen];
}

function headersOf(response: Response): Record<string, string | null> {
  return Object.fromEntries(COMPARED.map((name) => [name, response.headers.get(name)]));
}

describe('HEAD', () => {
  it('answers every GET route with the headers of its GET, gzipped or not', async () => {
    const { origin, baseUrl, credentials } = server();
    const token = await clientToken(server());
    const authorize = new URLSearchParams({
      response_type: 'code',
      client_id: credentials!.clientId,
      redirect_uri: credentials!.redirectUris[0]!,
      scope: 'admin',
      state: 'xyz',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const urls = [
      `${origin}/explorer`,
      `${origin}/explorer/`,
      `${origin}/explorer/explorer.js`,
      `${origin}/explorer/explorer.css`,
      `${origin}/oauth/authorize?${authorize}`,
      `${origin}/oauth/authorize?client_id=unknown`,
      `${origin}/.well-known/oauth-authorization-server`,
      `${baseUrl}/openapi.json`,
      `${origin}/rels/products`,
      `${origin}/health`,
      ...(await apiResources(baseUrl, token, 40)),
    ];
    expect(urls.length).toBeGreaterThan(25);
    const gzipped = new Set<string>();
    const statuses = new Map<string, number>();
    for (const acceptEncoding of ['gzip', 'identity']) {
      for (const url of urls) {
        const headers = { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding };
        const get = await fetch(url, { headers });
        await get.arrayBuffer();
        const head = await fetch(url, { method: 'HEAD', headers });
        const [got, headed] = [headersOf(get), headersOf(head)];
        // A page made per response (a nonce: `no-store`) gzips to a byte more or less each time.
        if (got['content-encoding'] === 'gzip' && got['cache-control'] === 'no-store') {
          expect(Math.abs(Number(headed['content-length']) - Number(got['content-length'])), url).toBeLessThan(8);
          headed['content-length'] = got['content-length'] ?? null;
        }
        expect({ url, status: head.status, ...headed }).toEqual({ url, status: get.status, ...got });
        expect(head.headers.get('content-length'), url).not.toBeNull();
        if (get.headers.get('content-encoding') === 'gzip') gzipped.add(url);
        statuses.set(url, get.status);
      }
    }
    // The fixed list names real pages (a typo would compare two 404s).
    for (const url of urls.slice(0, 10)) if (!url.includes('unknown')) expect(statuses.get(url), url).toBe(200);
    // Some answers are gzipped (the explorer, the authorize page), so that the comparison covers them.
    expect(gzipped).toContain(`${origin}/explorer/explorer.js`);
    expect(gzipped).toContain(`${origin}/oauth/authorize?${authorize}`);
  });
});
