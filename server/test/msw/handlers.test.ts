/** `createHandlers`: options, data, reset, issued and expired tokens, through MSW's `setupServer`. */
import { createHandlers, MOCK_DEMO_SECRETS, seed } from '@storefront-platform/server/msw';
import { afterEach, describe, expect, test } from 'vitest';
import { tokenRequest } from '../helpers/test-server.js';
import { assertion } from './assertion.js';
import { useMock } from './mocked.js';

const START = Date.UTC(2026, 10, 21, 9, 0, 0);
let now = START;
const clock = { now: () => now };

const { mock, server, token, clientToken, call } = useMock({ clock, tokenTtl: 120 });
// Back to the start after every test, passed or failed: a test that moves the clock must not leave it moved.
afterEach(() => {
  now = START;
});

describe('the handlers', () => {
  test('answer every path under the origin through the core, HEAD and OPTIONS included', async () => {
    const admin = await clientToken();
    const root = await call(mock.baseUrl, admin);
    expect(root.status).toBe(200);
    expect(root.headers.get('x-oauth-scopes')).toBe('admin');
    const body = (await root.json()) as { _links: Record<string, { href: string }> };
    expect(body._links.self!.href).toBe(`${mock.origin}/v1`);

    const head = await call(mock.baseUrl, admin, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(root.headers.get('etag'));
    expect(await head.text()).toBe('');

    const preflight = await fetch(`${mock.baseUrl}/shops/1/theme.json`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');

    const rel = await fetch(`${mock.origin}/rels/update_theme`);
    expect(rel.status).toBe(200);
    expect(rel.headers.get('content-type')).toMatch(/^text\/html/);

    // The origin itself is a path of the service too: the server's 404, not an unhandled request.
    const top = await fetch(mock.origin);
    expect(top.status).toBe(404);
    expect(await top.json()).toEqual({
      _class: ['errors'],
      message: 'No resource at /',
      request_id: top.headers.get('x-request-id'),
    });
  });

  test('give the demo credentials, with fixed secrets by default', async () => {
    expect(mock.credentials).toMatchObject({ login: 'demo', ...MOCK_DEMO_SECRETS });
    const response = await token({
      grant_type: 'password',
      username: 'demo',
      password: MOCK_DEMO_SECRETS.password,
      scope: 'admin public',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ token_type: 'Bearer', expires_in: 120, scopes: 'admin,public' });
  });

  test('leave other origins alone', async () => {
    const other = createHandlers({ origin: 'https://api.shop.test', seed: { products: 3 } });
    expect(other.baseUrl).toBe('https://api.shop.test/v1');
    server.use(...other.handlers);
    const response = await fetch('https://api.shop.test/v1/shops.json');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="storefront"');
    // The default mock still answers its own origin with its own data.
    const admin = await clientToken();
    expect((await call(`${mock.baseUrl}/shops/1`, admin)).status).toBe(200);
  });
});

describe('data and reset', () => {
  test('reset() restores the initial data and starts ids over; the store given out follows', async () => {
    const admin = await clientToken();
    const { store } = mock;
    const templates = store.where('templates', 'theme_id', '1').length;
    const create = (bearer: string) =>
      call(`${mock.baseUrl}/themes/1/templates`, bearer, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file_name: 'extra.css', body: 'body { color: red }' }),
      });
    const first = await create(admin);
    expect(first.status).toBe(201);
    const firstId = ((await first.json()) as { id: string }).id;
    expect(store.where('templates', 'theme_id', '1')).toHaveLength(templates + 1);

    mock.reset();
    expect(store.where('templates', 'theme_id', '1')).toHaveLength(templates);
    // Tokens went with the data.
    expect((await create(admin)).status).toBe(401);
    const recreated = await create(await clientToken());
    expect(recreated.status).toBe(201);
    expect(((await recreated.json()) as { id: string }).id).toBe(firstId);
  });

  test('a data set replaces the demo data and is never changed by the mock', async () => {
    const { dataset } = seed({ products: 2, orders: 0, clientId: 'own-app', clientSecret: 'own secret' });
    const given = structuredClone(dataset);
    const own = createHandlers({ data: dataset, origin: 'http://own.test' });
    expect(own.credentials).toEqual({
      clientId: 'own-app',
      clientSecret: 'own secret',
      login: 'demo',
      password: undefined,
      redirectUris: dataset.apps[0]!.redirect_uris,
    });
    expect(own.store.all('products')).toHaveLength(2);
    const { accessToken } = await own.issueToken({ scope: 'admin' });
    server.use(...own.handlers);
    const list = await call('http://own.test/v1/products.json', accessToken);
    expect(await list.json()).toMatchObject({ total_items: 2 });
    await own.store.write((tx) => tx.delete('products', '1'));
    expect(dataset).toEqual(given);
  });

  test('a data set may leave collections out', () => {
    const empty = createHandlers({ data: { shops: [] } });
    expect(empty.credentials).toBeUndefined();
    expect(empty.store.all('apps')).toEqual([]);
  });

  test('a data set passed as seed, the deprecated form, is still taken as data', () => {
    const { dataset } = seed({ products: 2, orders: 0, clientId: 'old-form-app' });
    const old = createHandlers({ seed: { shops: dataset.shops, products: dataset.products } });
    expect(old.store.all('products').map((row) => row.id)).toEqual(['1', '2']);
    expect(old.store.all('apps')).toEqual([]);
  });

  test('data and seed together, or a data set that is not one, are refused with the reason', () => {
    const { dataset } = seed({ products: 1, orders: 0 });
    expect(() => createHandlers({ data: dataset, seed: { products: 5 } })).toThrow(
      'Give either data (a data set) or seed (seed options for the demo data), not both',
    );
    expect(() => createHandlers({ data: dataset, seed: {} })).toThrow(/not both/);
    // A JSON module's namespace instead of its default export, as `import * as shop from './shop.json'` gives.
    expect(() => createHandlers({ data: { default: dataset } as never })).toThrow(
      /^data\.default is not a collection of a data set \(users, apps, /,
    );
    expect(() => createHandlers({ data: { products: {} } as never })).toThrow('data.products must be an array of rows');
    expect(() => createHandlers({ data: { shops: [{ title: 'no id' }] } as never })).toThrow(
      'data.shops[0] must be an object with a string "id"',
    );
    expect(() => createHandlers({ data: null as never })).toThrow(/^data must be a data set/);
    const twice = { ...dataset, products: [...dataset.products, dataset.products[0]!] };
    expect(() => createHandlers({ data: twice })).toThrow(/Duplicate id "1"/);
  });

  test('bad options are refused when the handlers are made', () => {
    expect(() => createHandlers({ origin: '/relative' })).toThrow(TypeError);
    expect(() => createHandlers({ origin: 'http://localhost:4000/v1' })).toThrow(/without path/);
    expect(() => createHandlers({ origin: 'ftp://localhost' })).toThrow(TypeError);
    expect(() => createHandlers({ tokenTtl: 0 })).toThrow(RangeError);
    expect(() => createHandlers({ tokenTtl: 1.5 })).toThrow(RangeError);
  });
});

describe('issueToken', () => {
  test('issues a token of the demo app for the demo user, or the user named', async () => {
    const issued = await mock.issueToken({ scope: ['admin', 'public'] });
    expect(issued).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresAt: now + 120_000,
      scopes: ['admin', 'public'],
    });
    const root = (await (await call(mock.baseUrl, issued.accessToken)).json()) as Record<string, unknown>;
    expect(root).toMatchObject({ user_name: 'Dana Demo', scopes: 'admin,public' });

    const juniper = await mock.issueToken({ scope: 'public', user: 'juniper' });
    const other = (await (await call(mock.baseUrl, juniper.accessToken)).json()) as Record<string, unknown>;
    expect(other).toMatchObject({ user_name: 'June Fig', scopes: 'public' });
  });

  test('refuses what the token endpoint would refuse', async () => {
    await expect(mock.issueToken({ scope: 'public', user: 'nobody' })).rejects.toThrow(/no user "nobody"/);
    await mock.store.write((tx) => {
      tx.insert('users', { id: 'visitor', login: 'visitor', name: 'Vic', password_hash: 'disabled', role: 'merchant' });
    });
    await expect(mock.issueToken({ scope: 'admin', user: 'visitor' })).rejects.toThrow(/administers a shop/);
    await expect(mock.issueToken({ scope: 'public', user: 'visitor' })).resolves.toMatchObject({ scopes: ['public'] });
  });
});

describe('expired tokens', () => {
  test('expireToken: the server 401, then a JWT bearer exchange of the expired token succeeds', async () => {
    const admin = await clientToken();
    await mock.expireToken(admin);
    const refused = await call(mock.baseUrl, admin);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="storefront", error="invalid_token"');
    expect(await refused.json()).toEqual({
      _class: ['errors'],
      message: 'The access token has expired',
      request_id: refused.headers.get('x-request-id'),
    });

    const { clientId, clientSecret } = mock.credentials!;
    const exchanged = await tokenRequest(mock.origin, {
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: await assertion(clientId, clientSecret, admin, now),
    });
    expect(exchanged.status).toBe(200);
    const renewed = ((await exchanged.json()) as { access_token: string }).access_token;
    expect((await call(mock.baseUrl, renewed)).status).toBe(200);
  });

  test('expireToken refuses a token the mock never issued', async () => {
    await expect(mock.expireToken('not-a-token')).rejects.toThrow(/never issued/);
  });

  test('tokens expire by the clock given', async () => {
    const admin = await clientToken();
    now += 119_000;
    expect((await call(mock.baseUrl, admin)).status).toBe(200);
    now += 1_000;
    expect((await call(mock.baseUrl, admin)).status).toBe(401);
  });
});
