/**
 * The API for the hooks' tests: the reference server's MSW handlers through `setupServer`, an admin token of the demo
 * user, and a record of every request the handlers answered, to count them. Nothing leaves the process.
 */
import { createStorefrontClient, type StorefrontClient, StorefrontProvider } from '@storefront-platform/react';
import { bearer } from '@storefront-platform/sdk';
import { createHandlers } from '@storefront-platform/server/msw';
import { QueryClient } from '@tanstack/react-query';
import { cleanup } from '@testing-library/react';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface MockedApi {
  mock: ReturnType<typeof createHandlers>;
  server: ReturnType<typeof setupServer>;
  /** Requests answered since the last `requests.length = 0`, as `GET /v1/…` (path and query). */
  requests: string[];
  /** A client of the demo user with an admin token, and a fresh TanStack client. */
  session(): Promise<{
    client: StorefrontClient;
    queryClient: QueryClient;
    wrapper: (props: { children?: ReactNode }) => ReactNode;
  }>;
  /** How many requests were `method` to `path` (path and query, as in `requests`). */
  count(method: string, path: string): number;
}

export function mockedApi(): MockedApi {
  const mock = createHandlers({ seed: { products: 24, orders: 2 } });
  const server = setupServer(...mock.handlers);
  const requests: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    cleanup();
    server.resetHandlers();
    mock.reset();
    requests.length = 0;
  });
  afterAll(() => server.close());
  return {
    mock,
    server,
    requests,
    count: (method, path) => requests.filter((request) => request === `${method} ${path}`).length,
    async session() {
      const { accessToken } = await mock.issueToken({ scope: 'admin' });
      const client = createStorefrontClient({ baseUrl: mock.baseUrl, auth: bearer(accessToken), retry: 0 });
      // No retries and no garbage collection of unused data in tests: what a test counts is what the hooks asked for.
      const queryClient = new QueryClient({
        defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY } },
      });
      const wrapper = ({ children }: { children?: ReactNode }) => (
        <StorefrontProvider client={client} queryClient={queryClient}>
          {children}
        </StorefrontProvider>
      );
      return { client, queryClient, wrapper };
    },
  };
}
