// @vitest-environment happy-dom
/**
 * `storefrontQuery`: the hooks' queries for route loaders and `prefetchQuery`. What a loader prefetched is what the
 * hooks show, without a second request; keys, data types and errors are the hooks' own.
 */
import {
  type StorefrontClient,
  StorefrontProvider,
  sessionTokenStorage,
  storefrontQuery,
  useClient,
  useFollow,
  useResource,
  useRoot,
} from '@storefront-platform/react';
import { NotFoundError, type Shop } from '@storefront-platform/sdk';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { mockedApi } from './support/mocked-api.js';

const api = mockedApi();

function ShopName({ id }: { id: number }) {
  const root = useRoot();
  const shop = useFollow(root.data, 'svc:shop', { id });
  const theme = useFollow(shop.data, 'svc:theme');
  return (
    <p data-testid="shop">
      {shop.data?.properties.name ?? 'loading'} · {theme.data?.properties.title ?? 'loading'}
    </p>
  );
}

describe('storefrontQuery', () => {
  it('prefetches what the hooks read: they render it with no request of their own', async () => {
    const { client, queryClient, wrapper } = await api.session();
    // Prefetched data is fresh for a while, as a loader's is meant to be: else every mount refetches it.
    queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, staleTime: 60_000 } });
    // A route loader: the root, a shop by relation, its theme.
    const root = await queryClient.ensureQueryData(storefrontQuery(client));
    const shop = await queryClient.ensureQueryData(storefrontQuery(client, root, 'svc:shop', { id: 1 }));
    expectTypeOf(shop).toEqualTypeOf<Shop>();
    await queryClient.prefetchQuery(storefrontQuery(client, shop, 'svc:theme'));
    expect(api.requests).toEqual(['GET /v1', 'GET /v1/shops/1.json', 'GET /v1/shops/1/theme.json']);

    api.requests.length = 0;
    render(<ShopName id={1} />, { wrapper });
    const { name } = api.mock.store.get('shops', '1')!;
    const theme = api.mock.store.all('themes').find((t) => t.shop_id === '1' && t.production)!;
    expect(screen.getByTestId('shop').textContent).toBe(`${name} · ${theme.title}`);
    // No refetch started either: the hooks' observers found fresh data under their keys.
    expect(queryClient.isFetching()).toBe(0);
    expect(api.requests).toEqual([]);
  });

  it('keys a URL as useResource does, so that a loader without entities fills the same query', async () => {
    const { client, queryClient, wrapper } = await api.session();
    queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, staleTime: 60_000 } });
    const options = storefrontQuery(client, 'shops/2.json');
    await queryClient.prefetchQuery(options);
    // The same URL by relation is the same query.
    const root = await queryClient.ensureQueryData(storefrontQuery(client));
    expect(storefrontQuery(client, root, 'svc:shop', { id: 2 }).queryKey).toEqual(options.queryKey);
    api.requests.length = 0;
    function Named() {
      const { data } = useResource('shops/2.json');
      return <p data-testid="name">{String(data?.properties.name)}</p>;
    }
    render(<Named />, { wrapper });
    expect(screen.getByTestId('name').textContent).toBe(api.mock.store.get('shops', '2')!.name);
    expect(queryClient.isFetching()).toBe(0);
    expect(api.requests).toEqual([]);
  });

  it('with signIn, a loader given the provider’s client (a router’s context) fills the queries the hooks show', async () => {
    const storage = sessionTokenStorage('test:token');
    storage.set(await api.mock.issueToken({ scope: 'admin' }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    async function shopLoader(storefront: StorefrontClient) {
      const root = await queryClient.ensureQueryData(storefrontQuery(storefront));
      const shop = await queryClient.ensureQueryData(storefrontQuery(storefront, root, 'svc:shop', { id: 1 }));
      await queryClient.prefetchQuery(storefrontQuery(storefront, shop, 'svc:theme'));
    }
    // What `<RouterProvider router={router} context={{ storefront: useClient() }} />` does: the route's loader runs
    // with the client of the token, then the route renders.
    function Router() {
      const storefront = useClient();
      const [loaded, setLoaded] = useState(false);
      useEffect(() => void shopLoader(storefront).then(() => setLoaded(true)), [storefront]);
      return loaded ? <ShopName id={1} /> : null;
    }
    render(
      <StorefrontProvider
        queryClient={queryClient}
        options={{ baseUrl: api.mock.baseUrl, retry: 0 }}
        signIn={{ authUrl: api.mock.origin, clientId: 'demo', storage }}
      >
        <Router />
      </StorefrontProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('shop').textContent).not.toContain('loading'));
    expect(queryClient.isFetching()).toBe(0);
    expect(api.requests).toEqual(['GET /v1', 'GET /v1/shops/1.json', 'GET /v1/shops/1/theme.json']);
    storage.set(undefined);
  });

  it("fails with the SDK's typed errors, as the hooks do", async () => {
    const { client, queryClient } = await api.session();
    const root = await queryClient.ensureQueryData(storefrontQuery(client));
    await expect(queryClient.fetchQuery(storefrontQuery(client, root, 'svc:shop', { id: 999 }))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await waitFor(() => expect(api.requests).toContain('GET /v1/shops/999.json'));
  });
});
