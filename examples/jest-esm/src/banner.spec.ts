/**
 * The banner tested without a network, under Jest's ESM mode: MSW serves the reference server's own behaviour
 * from `@storefront-platform/server/msw`, and failures are put in front with `server.use(...)`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from '@jest/globals';
import { NetworkError } from '@storefront-platform/sdk';
import { createHandlers } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { BANNER_FILE, type Banner, createBanner } from './banner.js';

const mock = createHandlers({ seed: { products: 10, orders: 2 } });
const server = setupServer(...mock.handlers);

// msw 2 calls it `onUnhandledRequest`, msw 3 `onUnhandledFrame`; the app runs on both (examples/jest-run.sh). Not an
// object literal in the call, where tsc refuses the key the installed msw does not know (TS2353).
const unhandled = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const;
beforeAll(() => server.listen(unhandled));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

let banner: Banner;
beforeEach(async () => {
  const { accessToken } = await mock.issueToken({ scope: 'admin' });
  banner = createBanner({ baseUrl: mock.baseUrl, accessToken, shopId: '1' });
});

const stored = () => mock.store.all('templates').find((t) => t.file_name === BANNER_FILE)?.body;

test('a theme without a banner reads as none', async () => {
  await expect(banner.current()).resolves.toBeUndefined();
});

test('publishes the banner, then reads it back through the SDK', async () => {
  await banner.publish('<p>Autumn sale</p>');
  expect(stored()).toBe('<p>Autumn sale</p>');
  await expect(banner.current()).resolves.toBe('<p>Autumn sale</p>');
});

test('an unreachable platform is the SDK’s NetworkError, and nothing is stored', async () => {
  server.use(mock.networkError({ method: 'POST' }));
  await expect(banner.publish('<p>Lost</p>')).rejects.toBeInstanceOf(NetworkError);
  expect(stored()).toBeUndefined();
});
