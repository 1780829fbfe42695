// @vitest-environment happy-dom
/** The read hooks over the MSW handlers: loading and data, typed errors, Suspense, and a 304 that renders nothing. */
import {
  StorefrontProvider,
  useFollow,
  useResource,
  useRoot,
  useSuspenseFollow,
  useSuspenseRoot,
} from '@storefront-platform/react';
import { NotFoundError, type ProductList, Results, UnknownRelationError } from '@storefront-platform/sdk';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/mocked-api.js';

const api = mockedApi();

function Shops() {
  const root = useRoot();
  const shop = useFollow(root.data, 'svc:shop', { id: 1 });
  if (root.isPending) return <p>Loading…</p>;
  if (root.error) return <p role="alert">{root.error.message}</p>;
  return (
    <div>
      <h1>{root.data.properties.user_name}</h1>
      <p data-testid="shop">{shop.data?.properties.name ?? 'shop loading'}</p>
    </div>
  );
}

describe('useRoot, useFollow', () => {
  it('shows the loading state, then the root and a relation followed from it, one request each', async () => {
    const { wrapper } = await api.session();
    render(<Shops />, { wrapper });
    expect(screen.getByText('Loading…')).toBeTruthy();
    const name = api.mock.store.get('shops', '1')!.name;
    await waitFor(() => expect(screen.getByTestId('shop').textContent).toBe(name));
    expect(screen.getByRole('heading').textContent).toBe('Dana Demo');
    expect(api.requests).toEqual(['GET /v1', 'GET /v1/shops/1.json']);
  });

  it('shares one query and one request between every hook that shows one URL', async () => {
    const { wrapper } = await api.session();
    render(
      <>
        <Shops />
        <Shops />
        <Shops />
      </>,
      { wrapper },
    );
    await waitFor(() => expect(screen.getAllByTestId('shop').map((p) => p.textContent)).not.toContain('shop loading'));
    expect(api.requests).toEqual(['GET /v1', 'GET /v1/shops/1.json']);
  });

  it('fails with the SDK’s typed errors: a 404, a relation the entity does not have', async () => {
    const { wrapper } = await api.session();
    function Missing() {
      const root = useRoot();
      const gone = useFollow(root.data, 'svc:shop', { id: 999 });
      // @ts-expect-error: the root has no such relation, and the types say so
      const unknown = useFollow(root.data, 'svc:frobnicate');
      return (
        <>
          <p data-testid="gone">{gone.error instanceof NotFoundError ? `404 ${gone.error.code}` : gone.status}</p>
          <p data-testid="unknown">
            {unknown.error instanceof UnknownRelationError ? 'unknown relation' : unknown.status}
          </p>
        </>
      );
    }
    render(<Missing />, { wrapper });
    await waitFor(() => expect(screen.getByTestId('gone').textContent).toMatch(/^404 /));
    await waitFor(() => expect(screen.getByTestId('unknown').textContent).toBe('unknown relation'));
  });

  it('reads a resource by URL, and an entity again from its self', async () => {
    const { wrapper } = await api.session();
    function Product() {
      const list = useResource('products.json?per_page=1');
      // A URL says nothing of its type: the app knows it is a page of products.
      const first = list.data instanceof Results ? (list.data as ProductList).pageItems[0] : undefined;
      // A summary's self is the product's detail, and the type says so.
      const detail = useResource(first);
      const properties = detail.data?.properties;
      // @ts-expect-error: a product has no locale (its shop has)
      void properties?.locale;
      return (
        <p data-testid="detail">{properties ? `${properties.title}: ${properties.description.length}` : 'loading'}</p>
      );
    }
    render(<Product />, { wrapper });
    await waitFor(() => expect(screen.getByTestId('detail').textContent).not.toBe('loading'), {
      onTimeout: (e) => new Error(`${e.message} ${api.requests}`),
    });
    expect(api.requests[0]).toBe('GET /v1/products.json?per_page=1');
    expect(api.requests[1]).toMatch(/^GET \/v1\/shops\/\d+\/products\/\d+\.json$/);
  });
});

describe('Suspense', () => {
  it('suspends until the data has arrived, then renders it without a pending state', async () => {
    const { wrapper } = await api.session();
    const states: string[] = [];
    function Theme() {
      const root = useSuspenseRoot();
      const shop = useSuspenseFollow(root.data, 'svc:shop', { id: 1 });
      const theme = useSuspenseFollow(shop.data, 'svc:theme');
      states.push(theme.status);
      return <p data-testid="theme">{theme.data.properties.title}</p>;
    }
    render(
      <Suspense fallback={<p>Suspended</p>}>
        <Theme />
      </Suspense>,
      { wrapper },
    );
    expect(screen.getByText('Suspended')).toBeTruthy();
    const title = api.mock.store.where('themes', 'shop_id', '1').find((t) => t.production)!.title;
    await waitFor(() => expect(screen.getByTestId('theme').textContent).toBe(title));
    expect(new Set(states)).toEqual(new Set(['success']));
  });
});

describe('revalidation', () => {
  it('re-renders nothing when a refetch is answered 304: the entity stays the same object', async () => {
    const { wrapper, queryClient, client } = await api.session();
    const revalidated: string[] = [];
    client.on('cache:revalidated', ({ url }) => revalidated.push(url));
    const seen: unknown[] = [];
    function Root() {
      const { data } = useRoot();
      seen.push(data);
      return <p data-testid="user">{data?.properties.user_name ?? 'loading'}</p>;
    }
    render(<Root />, { wrapper });
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('Dana Demo'));
    const renders = seen.length;
    const first = seen.at(-1);
    api.requests.length = 0;
    await queryClient.refetchQueries();
    expect(api.requests).toEqual(['GET /v1']);
    expect(revalidated).toEqual([`${api.mock.baseUrl}`]);
    // Rendered again only if the data changed; a 304 leaves it as it was.
    expect(seen.length).toBe(renders);
    expect(queryClient.getQueryData(queryClient.getQueryCache().getAll()[0]!.queryKey)).toBe(first);
  });
});

describe('retries', () => {
  function MissingShop() {
    const root = useRoot();
    const shop = useFollow(root.data, 'svc:shop', { id: 999 });
    return shop.error ? <p role="alert">{shop.error.name}</p> : <p>Loading…</p>;
  }

  it('leaves the SDK’s errors to the SDK under a QueryClient of TanStack’s defaults: a 404 shows after one request', async () => {
    const { client } = await api.session();
    render(
      <StorefrontProvider client={client} queryClient={new QueryClient()}>
        <MissingShop />
      </StorefrontProvider>,
    );
    // TanStack's default would retry 3 times, 1 s then 2 s then 4 s apart.
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('NotFoundError'));
    expect(api.count('GET', '/v1/shops/999.json')).toBe(1);
  });

  it('keeps the retry the app gave its QueryClient', async () => {
    const { client } = await api.session();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, retryDelay: 0 } } });
    render(
      <StorefrontProvider client={client} queryClient={queryClient}>
        <MissingShop />
      </StorefrontProvider>,
    );
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('NotFoundError'));
    expect(api.count('GET', '/v1/shops/999.json')).toBe(2);
  });
});
