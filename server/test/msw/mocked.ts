/**
 * A mock of the service listening through MSW's `setupServer` for one test file, with helpers for the demo
 * app's token requests. Unhandled requests are errors: nothing may leave the process.
 */

import { createHandlers, type HandlersOptions, type StorefrontMock } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { clientToken, tokenRequest } from '../helpers/test-server.js';

export interface Mocked {
  mock: StorefrontMock;
  server: ReturnType<typeof setupServer>;
  /** `POST /oauth/token` with the demo app's Basic credentials. */
  token(params: Record<string, string>): Promise<Response>;
  /** An access token of the client credentials grant. */
  clientToken(scope?: 'admin' | 'public'): Promise<string>;
  /** `GET` (or `init.method`) with a bearer token. */
  call(url: string, token: string | undefined, init?: RequestInit): Promise<Response>;
}

/** Registers the mock's lifecycle in the calling file: listen, reset handlers and data after each test, close. */
export function useMock(options: HandlersOptions = {}): Mocked {
  // The small demo seed unless the file gives data of its own.
  const data = options.data ? {} : { seed: { products: 12, orders: 4 } };
  const mock = createHandlers({ ...data, ...options });
  const server = setupServer(...mock.handlers);
  // msw 3 renamed `onUnhandledRequest` to `onUnhandledFrame`; each version ignores the other's name.
  const strict = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const;
  beforeAll(() => server.listen(strict));
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => server.close());

  return {
    mock,
    server,
    token: (params) => tokenRequest(mock.origin, params, mock.credentials),
    clientToken: (scope) => clientToken(mock, scope),
    call(url, bearer, init = {}) {
      const headers = new Headers(init.headers);
      if (bearer) headers.set('authorization', `Bearer ${bearer}`);
      return fetch(url, { ...init, headers });
    },
  };
}
