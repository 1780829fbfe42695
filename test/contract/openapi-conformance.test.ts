/** The OpenAPI check of the contract suite fails on responses that drift from the document, and says how. */
import { basicAuthorization } from '@storefront-platform/sdk/internal';
import { createCore, createMemoryStore } from '@storefront-platform/server';
import { beforeAll, describe, expect, test } from 'vitest';
import { BASE, clock, DATASET, DEMO, ORIGIN, TOKEN_TTL } from './fixture.js';
import { Conformance, type Observed } from './openapi-conformance.js';

const core = createCore({
  store: createMemoryStore(structuredClone(DATASET)),
  clock,
  addresses: { origin: ORIGIN, baseUrl: BASE, authUrl: ORIGIN, staticUrl: `${ORIGIN}/static` },
  tokenTtl: TOKEN_TTL,
});

async function observe(url: string, init: RequestInit = {}): Promise<Observed> {
  const response = await core.fetch(new Request(url, init));
  const method = init.method ?? 'GET';
  return { method, url, status: response.status, headers: response.headers, text: await response.text() };
}

let conformance: Conformance;
let token: string;

beforeAll(async () => {
  conformance = new Conformance(await (await core.fetch(new Request(`${BASE}/openapi.json`))).json());
  const form = new URLSearchParams({ grant_type: 'client_credentials', scope: 'admin' });
  const headers = { authorization: basicAuthorization(DEMO) };
  const reply = await core.fetch(new Request(`${ORIGIN}/oauth/token`, { method: 'POST', body: form, headers }));
  token = ((await reply.json()) as { access_token: string }).access_token;
});

/** `observed` with its JSON body changed by `change`. */
function edited(observed: Observed, change: (body: Record<string, unknown>) => void): Observed {
  const body = JSON.parse(observed.text);
  change(body);
  return { ...observed, text: JSON.stringify(body) };
}

describe('the OpenAPI check', () => {
  test('passes the server’s own answers', async () => {
    const shop = await observe(`${BASE}/shops/1.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(shop.status).toBe(200);
    expect(conformance.problems(shop)).toEqual([]);
    expect(conformance.problems(await observe(`${BASE}/shops/1.jsonp?callback=cb&access_token=${token}`))).toEqual([]);
    expect(conformance.problems(await observe(`${BASE}/nothing/here`))).toEqual([]);
  });

  test('names a member the representation does not have, a missing one, a wrong type, with the values', async () => {
    const shop = await observe(`${BASE}/shops/1.json`, { headers: { authorization: `Bearer ${token}` } });
    const [extra] = conformance.problems(edited(shop, (body) => (body.colour = 'red')));
    expect(extra).toContain('GET /v1/shops/{id}.json (getShop) 200: the body does not match its schema');
    expect(extra).toContain('must NOT have additional properties (colour)');
    const [missing] = conformance.problems(edited(shop, (body) => delete body.locale));
    expect(missing).toContain("must have required property 'locale'");
    const [typed] = conformance.problems(edited(shop, (body) => (body.updated_on = 20261121)));
    expect(typed).toMatch(/at \/updated_on: must be string[^\n]*\n\s+value: 20261121/);
    const [link] = conformance.problems(
      edited(shop, (body) => ((body._links as Record<string, unknown>)['svc:theme'] = { href: 'x', method: 'put' })),
    );
    expect(link).toContain('at /_links/svc:theme/method: must not be present');
  });

  test('refuses an undocumented status, a missing validator, a body on a 304, a 200 on an unknown path', async () => {
    const shop = await observe(`${BASE}/shops/1.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(conformance.problems({ ...shop, status: 418 })).toEqual([
      expect.stringContaining('status 418 is not documented'),
    ]);
    const headers = new Headers(shop.headers);
    headers.delete('etag');
    expect(conformance.problems({ ...shop, headers })).toEqual([expect.stringContaining('header ETag is missing')]);
    expect(conformance.problems({ ...shop, status: 304 })).toEqual([
      expect.stringContaining('a body where none is sent'),
    ]);
    expect(conformance.problems({ ...shop, url: `${BASE}/nothing/here` })).toEqual([
      expect.stringContaining('has no path for /v1/nothing/here'),
    ]);
    const put = await observe(`${BASE}/shops/1.json`, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
    expect(put.status).toBe(405);
    expect(conformance.problems(put)).toEqual([]);
    expect(conformance.problems({ ...put, status: 404 })).toEqual([expect.stringContaining('not 405')]);
  });
});
