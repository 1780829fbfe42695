/**
 * The team's data over the control API of a real server (HTTP on port 0, a JSON data directory), through the
 * typed client: apps and users that sign in with their own credentials, removal that revokes, shops with their
 * theme, products and orders with their events, and clear 4xx answers to bad input.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { connectSandbox, type SandboxClient } from '../../src/sandbox/client.js';
import { SandboxError } from '../../src/sandbox/sandbox-error.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { tokenRequest } from '../helpers/test-server.js';

const tempDir = useTempDir();
let server: StorefrontServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<{ server: StorefrontServer; control: SandboxClient }> {
  const dir = await tempDir();
  server = await createServer({ port: 0, data: join(dir, 'db.json'), products: 6, control: true, explorer: false });
  return { server, control: connectSandbox(server.control!) };
}

/** The refusal `promise` rejects with: its status and message. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof SandboxError)) throw new Error(`expected a SandboxError, got ${String(error)}`);
  return { status: error.status, message: error.message };
}

async function token(s: StorefrontServer, params: Record<string, string>, client?: object) {
  const response = await tokenRequest(s.origin, params, client as never);
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('apps and users through the control API', () => {
  it('registers an app whose secret is told once; its owner signs in by client credentials and password', async () => {
    const { server: s, control } = await start();
    const user = await control.users.add({ login: 'ada', password: 'analytical', shops: ['copper-kettle'] });
    expect(user).toMatchObject({ login: 'ada', name: 'ada', shops: ['copper-kettle'] });
    const app = await control.apps.add({ name: 'Ada’s app', redirect_uris: ['https://ada.test/cb'], owner: 'ada' });
    expect(app).toMatchObject({ kind: 'web', owner: 'ada', redirect_uris: ['https://ada.test/cb'] });
    expect(app.client_secret.length).toBeGreaterThan(30);
    const { client_secret: _, ...shown } = app;
    expect((await control.apps.list()).find((a) => a.id === app.id)).toEqual(shown);
    expect(JSON.stringify(await control.apps.list())).not.toContain(app.client_secret);
    // Nor is the password or its hash ever answered.
    expect(JSON.stringify(await control.users.list())).not.toMatch(/analytical|scrypt/);

    const client = { clientId: app.client_id, clientSecret: app.client_secret };
    const credentials = await token(s, { grant_type: 'client_credentials', scope: 'admin' }, client);
    expect(credentials.status).toBe(200);
    const root = await fetch(`${s.baseUrl}/`, {
      headers: { authorization: `Bearer ${credentials.body.access_token}` },
    });
    const shops = ((await root.json()) as { _embedded: { shops: { subdomain: string }[] } })._embedded.shops;
    expect(shops.map((shop) => shop.subdomain)).toEqual(['copper-kettle']);
    const password = await token(
      s,
      { grant_type: 'password', username: 'ada', password: 'analytical', scope: 'admin' },
      client,
    );
    expect(password.status).toBe(200);
    expect(
      (await token(s, { grant_type: 'password', username: 'ada', password: 'wrong one', scope: 'admin' }, client))
        .status,
    ).toBe(400);

    // Removal revokes: the tokens answer 401, the client is unknown.
    await control.apps.remove(app.client_id);
    const after = await fetch(`${s.baseUrl}/`, { headers: { authorization: `Bearer ${password.body.access_token}` } });
    expect(after.status).toBe(401);
    const gone = await token(s, { grant_type: 'client_credentials' }, client);
    expect([gone.status, gone.body.error]).toEqual([401, 'invalid_client']);
    expect((await refusal(control.apps.remove(app.id))).status).toBe(404);

    // A user who still owns a shop stays; once the shop is gone, the user goes, with their tokens.
    const kept = await refusal(control.users.remove('ada'));
    expect(kept).toMatchObject({ status: 409, message: expect.stringContaining('shop copper-kettle') });
    await control.shops.remove('copper-kettle');
    const demo = { clientId: s.credentials!.clientId, clientSecret: s.credentials!.clientSecret };
    const adaToken = await token(s, { grant_type: 'password', username: 'ada', password: 'analytical' }, demo);
    expect(adaToken.status).toBe(200);
    await control.users.remove(user.id);
    const revoked = await fetch(`${s.baseUrl}/`, {
      headers: { authorization: `Bearer ${adaToken.body.access_token}` },
    });
    expect(revoked.status).toBe(401);
    expect((await control.users.list()).map((u) => u.login)).not.toContain('ada');
  });

  it('answers bad input with a 400 that says what is wrong, and conflicts with a 409', async () => {
    const { control } = await start();
    const cases: [() => Promise<unknown>, number, RegExp][] = [
      [() => control.apps.add({ name: '' }), 400, /"name" must be text/],
      [
        () => control.apps.add({ name: 'x', kind: 'desktop' as never }),
        400,
        /"kind" must be one of native, web, browser/,
      ],
      [() => control.apps.add({ name: 'x', redirect_uris: ['/relative'] }), 400, /absolute http\(s\) URI/],
      [() => control.apps.add({ name: 'x', redirect_uris: ['https://a.test/#frag'] }), 400, /without a fragment/],
      [() => control.apps.add({ name: 'x', redirect_uris: ['com.example.app:/cb'] }), 400, /http\(s\)/],
      [() => control.apps.add({ name: 'x', redirect_uris: 'https://a.test' as never }), 400, /list of strings/],
      [() => control.apps.add({ name: 'x', owner: 'nobody' }), 404, /No user "nobody"/],
      [() => control.users.add({ login: 'a b', password: 'long enough' }), 400, /no spaces/],
      [() => control.users.add({ login: 'bea', password: 'short' }), 400, /"password" must be text of 8/],
      [() => control.users.add({ login: 'demo', password: 'long enough' }), 409, /exists already/],
      [
        () => control.users.add({ login: 'bea', password: 'long enough', shops: ['atlantis'] }),
        404,
        /no shop "atlantis"/,
      ],
      [() => control.shops.add({ name: 'Acme', owner: 'demo', currency_code: 'pounds' }), 400, /ISO 4217/],
      [() => control.shops.add({ name: 'Northwind', owner: 'demo' }), 409, /subdomain "northwind" exists/],
      [() => control.shops.add({ name: '!!!', owner: 'demo' }), 400, /"subdomain" must be/],
      [() => control.products.add({ shop: 'northwind', price: '3.50' }), 400, /price: must be a whole number of cents/],
      [() => control.products.add({ shop: 'northwind', colour: 'red' }), 400, /products have no field "colour"/],
      [() => control.products.add({ shop: 'atlantis' }), 404, /no shop "atlantis"/],
      [() => control.orders.add({ shop: 'northwind', status: 'lost' }), 400, /status: must be one of/],
      [() => control.orders.remove('999999'), 404, /No order 999999/],
    ];
    for (const [call, status, message] of cases) {
      const answer = await refusal(call());
      expect(answer.status, answer.message).toBe(status);
      expect(answer.message).toMatch(message);
    }
    // A native app may use a private-use scheme (RFC 8252 §7.1).
    expect((await control.apps.add({ name: 'x', kind: 'native', redirect_uris: ['com.example.app:/cb'] })).kind).toBe(
      'native',
    );
  });

  it('refuses a body that is not a JSON object, without a 500', async () => {
    const { server: s } = await start();
    const { url, token: secret } = s.control!;
    for (const body of ['[]', 'not json', '"text"']) {
      const answer = await fetch(`${url}/apps`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(400);
    }
    const created = await fetch(`${url}/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'raw', password: 'raw password' }),
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { _class: string[]; _links: { remove: { href: string } } };
    expect(user._class).toEqual(['user']);
    const removed = await fetch(user._links.remove.href, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(removed.status).toBe(204);
    const links = (await (await fetch(url, { headers: { authorization: `Bearer ${secret}` } })).json()) as {
      _links: Record<string, { href: string }>;
    };
    expect(links._links.apps!.href).toBe(`${url}/apps`);
    expect(links._links.orders!.href).toBe(`${url}/orders`);
  });
});

describe('shops, products and orders through the control API', () => {
  it('creates a shop with a theme, a product and an order with their events, and removes them', async () => {
    const { server: s, control } = await start();
    await control.users.add({ login: 'grace', password: 'cobol-1959' });
    const shop = await control.shops.add({ name: 'Grace Hardware', owner: 'grace', currency_code: 'USD' });
    expect(shop).toMatchObject({ subdomain: 'grace-hardware', owner: 'grace', public: false, currency_code: 'USD' });
    const product = await control.products.add({ shop: shop.subdomain, title: 'Compiler', price: 1959 });
    expect(product).toMatchObject({ shop_id: shop.id, title: 'Compiler', price: 1959, status: 'visible' });
    const order = await control.orders.add({ shop: shop.id, total: 0 });
    expect(order).toMatchObject({ shop_id: shop.id, total: 0, currency_code: 'USD', status: 'open' });
    expect((await control.products.list({ shop: 'grace-hardware' })).map((p) => p.id)).toEqual([product.id]);
    expect((await control.orders.list({ shop: shop.id })).map((o) => o.id)).toEqual([order.id]);

    // Each write recorded its event, in the event list of the shop's administrator.
    const events = s.store.all('events').filter((event) => event.shop_id === shop.id);
    expect(events.map((event) => event.type)).toEqual(['product.created', 'order.created']);
    const demo = { clientId: s.credentials!.clientId, clientSecret: s.credentials!.clientSecret };
    const grace = await token(
      s,
      { grant_type: 'password', username: 'grace', password: 'cobol-1959', scope: 'admin' },
      demo,
    );
    const theme = await fetch(`${s.baseUrl}/shops/${shop.id}/theme.json`, {
      headers: { authorization: `Bearer ${grace.body.access_token}` },
    });
    expect(theme.status).toBe(200);

    await control.products.remove(product.id);
    await control.orders.remove(order.id);
    expect(await control.products.list({ shop: shop.id })).toEqual([]);
    await control.shops.remove(shop.subdomain);
    expect((await control.shops.list()).map((x) => x.subdomain)).not.toContain('grace-hardware');
    expect(s.store.where('themes', 'shop_id', shop.id)).toEqual([]);
  });
});
