/**
 * The app page with its API mocked in the browser, as a team's browser tests or Storybook would run it: the
 * MSW handlers of @storefront-platform/server answer the SDK's requests through MSW's service worker, and no server runs.
 * The user is taken as signed in (a token issued by the mock stands in for the implicit grant's). The test
 * reaches the mock and the worker through `window.storefrontMock` to simulate failures.
 */

import { createHandlers, type Dataset } from '@storefront-platform/server/msw';
import { setupWorker } from 'msw/browser';
import { type AppConfig, startApp, TOKEN_KEY } from './app.js';

const config = (await (await fetch('/config.json')).json()) as AppConfig;
// A data set of the test's own (an imported shop, as one JSON file) when the site serves one; else the demo data.
const served = await fetch('/shop.dataset.json');
const data = served.ok ? ((await served.json()) as Dataset) : undefined;
const mock = createHandlers({ origin: new URL(config.baseUrl).origin, ...(data && { data }) });
const worker = setupWorker(...mock.handlers);
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
sessionStorage.setItem(TOKEN_KEY, JSON.stringify(await mock.issueToken({ scope: 'admin' })));
Object.assign(window, { storefrontMock: { mock, worker } });
await startApp(config);
