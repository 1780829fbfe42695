/**
 * The back office tested without a network, under Jest in CommonJS: MSW serves the reference server's own
 * behaviour from `@storefront-platform/server/msw`, and failures are put in front with `server.use(...)`.
 */
import { ServerError } from '@storefront-platform/sdk';
import { createHandlers } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { createShopAdmin, type ShopAdmin } from './shop-admin';

const mock = createHandlers({ seed: { products: 10, orders: 2 } });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

let admin: ShopAdmin;
beforeEach(() => {
  const { clientId, clientSecret } = mock.credentials!;
  admin = createShopAdmin({ baseUrl: mock.baseUrl, authUrl: mock.origin, clientId, clientSecret, retry: 0 });
});

test('lists the shops through the SDK', async () => {
  const names = await admin.shopNames();
  expect(names).toContain(mock.store.get('shops', '1')?.name);
});

test('renames a production theme', async () => {
  await expect(admin.renameTheme('1', 'Autumn sale')).resolves.toBe('Autumn sale');
  const theme = mock.store.where('themes', 'shop_id', '1').find((t) => t.production);
  expect(theme?.title).toBe('Autumn sale');
});

test('surfaces a 503 as the SDK’s ServerError, and the data stays as it was', async () => {
  const before = mock.store.where('themes', 'shop_id', '1').find((t) => t.production)?.title;
  server.use(mock.serverError({ status: 503, method: 'PUT' }));
  const renaming = admin.renameTheme('1', 'Never stored');
  await expect(renaming).rejects.toBeInstanceOf(ServerError);
  await expect(renaming).rejects.toMatchObject({ status: 503 });
  expect(mock.store.where('themes', 'shop_id', '1').find((t) => t.production)?.title).toBe(before);
});
