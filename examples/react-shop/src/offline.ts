/**
 * Offline mode: the API answered inside the page by the reference server's MSW handlers through a service worker
 * (`setupWorker`), on demo data, with no server running. A browser cannot be sent to a mocked authorize page (MSW sees
 * the page's requests, not its navigations), so the tab starts signed in with a token issued by the mock. Loaded only
 * in that mode: the handlers and the server's core stay out of the app's own bundle.
 */
import { createHandlers } from '@storefront-platform/server/msw';
import { setupWorker } from 'msw/browser';
import { type ShopConfig, TOKEN_KEY } from './config.js';

export async function startOffline(config: ShopConfig): Promise<void> {
  const mock = createHandlers({ origin: new URL(config.baseUrl).origin });
  const worker = setupWorker(...mock.handlers);
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  // A page load is a fresh mock: a token of an earlier one means nothing to it.
  sessionStorage.setItem(TOKEN_KEY, JSON.stringify(await mock.issueToken({ scope: 'admin' })));
}
