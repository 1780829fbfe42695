/**
 * The team's data at the MSW door, the twins of the control API's: an app and a user added to the mock sign in
 * through its token endpoint (MSW's `setupServer`), removal revokes, bad input is the same `SandboxError`, events
 * are recorded and delivered like any write's, and `reset()` takes it all back out.
 */
import { SandboxError } from '@storefront-platform/server/msw';
import { expect, test } from 'vitest';
import { tokenRequest } from '../helpers/test-server.js';
import { useMock } from '../msw/mocked.js';

const { mock, call } = useMock();

test('an app and a user of the mock sign in with their own credentials; removal revokes', async () => {
  await mock.users.add({ login: 'lin', password: 'lin password', shops: ['juniper-fig'] });
  const app = await mock.apps.add({ name: 'Lin’s app', owner: 'lin', redirect_uris: ['https://lin.test/cb'] });
  const client = { clientId: app.client_id, clientSecret: app.client_secret };
  const granted = await tokenRequest(mock.origin, { grant_type: 'client_credentials', scope: 'admin' }, client);
  expect(granted.status).toBe(200);
  const { access_token: token } = (await granted.json()) as { access_token: string };
  const root = (await (await call(`${mock.baseUrl}/`, token)).json()) as {
    _embedded: { shops: { subdomain: string }[] };
  };
  expect(root._embedded.shops.map((shop) => shop.subdomain)).toEqual(['juniper-fig']);
  const password = await tokenRequest(
    mock.origin,
    { grant_type: 'password', username: 'lin', password: 'lin password' },
    client,
  );
  expect(password.status).toBe(200);

  await mock.apps.remove(app.id);
  expect((await call(`${mock.baseUrl}/`, token)).status).toBe(401);
  expect((await tokenRequest(mock.origin, { grant_type: 'client_credentials' }, client)).status).toBe(401);
});

test('bad input is the same SandboxError as over HTTP', async () => {
  const refused = await mock.apps.add({ name: 'x', redirect_uris: ['not a uri'] }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(SandboxError);
  expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('absolute http(s) URI') });
  await expect(mock.users.add({ login: 'demo', password: 'long enough' })).rejects.toMatchObject({ status: 409 });
  await expect(mock.products.remove('nope')).rejects.toMatchObject({ status: 404 });
});

test('a product added records its event, delivered to the endpoints of its shop', async () => {
  const delivered: string[] = [];
  mock.webhooks.receive('http://app.test/hooks', async (request) => {
    delivered.push(((await request.json()) as { type: string }).type);
    return new Response(null, { status: 204 });
  });
  const granted = await tokenRequest(
    mock.origin,
    { grant_type: 'client_credentials', scope: 'admin' },
    mock.credentials,
  );
  const { access_token: token } = (await granted.json()) as { access_token: string };
  const endpoints = await call(`${mock.baseUrl}/webhook_endpoints`, token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://app.test/hooks', events: ['product.created', 'order.created'] }),
  });
  expect(endpoints.status).toBe(201);
  const product = await mock.products.add({ shop: 'northwind', title: 'Mock Lantern', price: 1200 });
  const order = await mock.orders.add({ shop: 'northwind' });
  expect((await mock.products.list({ shop: 'northwind' })).map((p) => p.id)).toContain(product.id);
  expect((await mock.orders.list({ shop: 'northwind' })).map((o) => o.id)).toContain(order.id);
  await mock.webhooks.drain();
  // Attempts go out side by side: deliveries promise no order (a receiver orders by the event's `created_on`).
  expect(delivered.sort()).toEqual(['order.created', 'product.created']);
});

test('reset() takes the team data back out', async () => {
  await mock.users.add({ login: 'temp', password: 'temporary' });
  const shop = await mock.shops.add({ name: 'Temp Shop', owner: 'temp' });
  expect((await mock.shops.list()).map((s) => s.id)).toContain(shop.id);
  mock.reset();
  expect((await mock.users.list()).map((u) => u.login)).not.toContain('temp');
  expect((await mock.shops.list()).map((s) => s.subdomain)).not.toContain('temp-shop');
});
