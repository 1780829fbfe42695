/**
 * The theme sync app tested without a network: MSW serves the reference server's own behaviour from
 * `@storefront-platform/server/msw`, and failures are put in front with `server.use(...)`.
 */

import { ServerError, type TokenInfo } from '@storefront-platform/sdk';
import { createHandlers } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createThemeSync, type LocalTemplate, type ThemeSync } from './theme-sync.js';

const mock = createHandlers({ seed: { products: 10, orders: 2 } });
const server = setupServer(...mock.handlers);

/** Every request the app sends, as `METHOD path`, and the token requests' forms. */
const sent: string[] = [];
const tokenForms: URLSearchParams[] = [];

beforeAll(() => {
  // msw 3 renamed `onUnhandledRequest` to `onUnhandledFrame`; each version ignores the other's name.
  const strict = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const;
  server.listen(strict);
  server.events.on('request:start', async ({ request }) => {
    const url = new URL(request.url);
    sent.push(`${request.method} ${url.pathname}`);
    if (url.pathname === '/oauth/token') tokenForms.push(new URLSearchParams(await request.clone().text()));
  });
});
afterEach(() => {
  server.resetHandlers();
  mock.reset();
  sent.length = 0;
  tokenForms.length = 0;
});
afterAll(() => server.close());

let accessToken: string;
let onToken: ReturnType<typeof vi.fn<(token: TokenInfo) => void>>;
let app: ThemeSync;

beforeEach(async () => {
  ({ accessToken } = await mock.issueToken({ scope: 'admin' }));
  onToken = vi.fn<(token: TokenInfo) => void>();
  const { clientId, clientSecret } = mock.credentials!;
  app = createThemeSync({ baseUrl: mock.baseUrl, authUrl: mock.origin, clientId, clientSecret, accessToken, onToken });
});

/** The production theme's templates of shop 1, by file name, as stored by the mock. */
function storedTemplates(): Map<string, string> {
  const theme = mock.store.where('themes', 'shop_id', '1').find((t) => t.production)!;
  return new Map(mock.store.where('templates', 'theme_id', theme.id).map((t) => [t.file_name, t.body]));
}

function localFiles(): LocalTemplate[] {
  const stored = storedTemplates();
  return [
    { file_name: 'layout.html', body: stored.get('layout.html')! },
    { file_name: 'index.html', body: '<h1>Autumn sale</h1>' },
    { file_name: 'css/sale.css', body: '.sale { color: #b00 }' },
  ];
}

test('creates, updates and leaves alone, then the theme holds the local files', async () => {
  const report = await app.sync('1', localFiles());
  expect(report).toEqual({
    created: ['css/sale.css'],
    updated: ['index.html'],
    unchanged: ['layout.html'],
    rejected: [],
  });
  const stored = storedTemplates();
  expect(stored.get('index.html')).toBe('<h1>Autumn sale</h1>');
  expect(stored.get('css/sale.css')).toBe('.sale { color: #b00 }');
  expect(onToken).not.toHaveBeenCalled();
});

describe('a server error', () => {
  test('on a read is retried by the SDK, and the sync goes through', async () => {
    server.use(mock.serverError({ status: 503, times: 1, retryAfter: 0, path: '/v1/shops/:shop_id/theme.json' }));
    const report = await app.sync('1', localFiles());
    expect(report.created).toEqual(['css/sale.css']);
    expect(sent.filter((line) => line === 'GET /v1/shops/1/theme.json')).toHaveLength(2);
  });

  test('on a create is retried with its Idempotency-Key, and surfaces as a ServerError once the retries are spent', async () => {
    server.use(mock.serverError({ method: 'POST', path: '/v1/themes/:theme_id/templates', retryAfter: 0 }));
    const failure = await app.sync('1', localFiles()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServerError);
    expect(failure).toMatchObject({ status: 500, code: 'SERVER_ERROR' });
    // The first attempt and the SDK's two retries.
    expect(sent.filter((line) => line.startsWith('POST /v1/'))).toHaveLength(3);
    // The update before the failed create went through; nothing was created.
    expect(storedTemplates().get('index.html')).toBe('<h1>Autumn sale</h1>');
    expect(storedTemplates().has('css/sale.css')).toBe(false);
  });
});

describe('an expired token', () => {
  test('is exchanged through the JWT bearer grant, and the app gets the new one to persist', async () => {
    server.use(mock.expiredToken({ times: 1 }));
    const report = await app.sync('1', localFiles());
    expect(report.updated).toEqual(['index.html']);

    expect(tokenForms).toHaveLength(1);
    expect(tokenForms[0]!.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    // The assertion names the expired token as its subject.
    const claims = JSON.parse(
      atob(tokenForms[0]!.get('assertion')!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
    );
    expect(claims).toMatchObject({ iss: mock.credentials!.clientId, sub: accessToken });

    expect(onToken).toHaveBeenCalledTimes(1);
    const renewed = onToken.mock.calls[0]![0];
    expect(renewed.accessToken).not.toBe(accessToken);
    // The old token is spent (revoked by the exchange), the new one is what the app must persist.
    const root = await fetch(mock.baseUrl, { headers: { authorization: `Bearer ${renewed.accessToken}` } });
    expect(root.status).toBe(200);
    const old = await fetch(mock.baseUrl, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(old.status).toBe(401);
  });
});

test('a bad template is reported with the platform’s reasons (422), the other files are synced', async () => {
  const files = [...localFiles(), { file_name: 'snippets/card.liquid', body: '{{ product.title }}' }];
  const report = await app.sync('1', files);
  expect(report.created).toEqual(['css/sale.css']);
  expect(report.rejected).toEqual([
    { file_name: 'snippets/card.liquid', errors: [{ field: 'file_name', messages: [expect.any(String)] }] },
  ]);
  expect(storedTemplates().has('snippets/card.liquid')).toBe(false);
});
