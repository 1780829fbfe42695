// @vitest-environment happy-dom
/** usePages over the MSW handlers: pages through `next`, one request each, a search as another list. */
import { useFollow, usePages, useRoot } from '@storefront-platform/react';
import { UnknownRelationError } from '@storefront-platform/sdk';
import { act, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/mocked-api.js';

const api = mockedApi();

function Products() {
  const [q, setQ] = useState<string | undefined>(undefined);
  const root = useRoot();
  const shop = useFollow(root.data, 'svc:shop', { id: 1 });
  const list = usePages(shop.data, 'svc:products', { per_page: 3, q });
  return (
    <>
      <ul>
        {list.items.map((item) => (
          <li key={item.properties.id}>{item.properties.title}</li>
        ))}
      </ul>
      <p data-testid="state">{list.isFetching ? 'fetching' : list.hasNextPage ? 'more' : 'end'}</p>
      <button type="button" onClick={() => void list.fetchNextPage()}>
        More
      </button>
      <button type="button" onClick={() => setQ(api.mock.store.where('products', 'shop_id', '1')[0]!.title)}>
        Search
      </button>
    </>
  );
}

describe('usePages', () => {
  it('loads the first page, then each next page through its next link, one request a page', async () => {
    const { wrapper } = await api.session();
    render(<Products />, { wrapper });
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('more'));
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    api.requests.length = 0;

    await act(async () => screen.getByRole('button', { name: 'More' }).click());
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(6));
    expect(api.requests).toHaveLength(1);
    // The server writes `next` with a cursor, not an offset: the page was read at the link it gave.
    expect(api.requests[0]).toMatch(/^GET \/v1\/products\.json\?.*shop_ids=1/);

    // An admin token lists the shop's hidden products too.
    const shop = api.mock.store.where('products', 'shop_id', '1');
    const titles = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(new Set(titles).size).toBe(6);
    for (const title of titles) expect(shop.map((p) => p.title)).toContain(title);
  });

  it('makes a search another list, from its first page', async () => {
    const { wrapper } = await api.session();
    render(<Products />, { wrapper });
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('more'));
    api.requests.length = 0;
    await act(async () => screen.getByRole('button', { name: 'Search' }).click());
    const wanted = api.mock.store.where('products', 'shop_id', '1')[0]!.title;
    await waitFor(() => expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toContain(wanted));
    expect(api.requests).toHaveLength(1);
    expect(new URL(api.requests[0]!.slice(4), api.mock.origin).searchParams.get('q')).toBe(wanted);
  });
});

describe('usePages on a relation the entity lacks', () => {
  it('fails the query with the SDK’s UnknownRelationError instead of the render', async () => {
    const { wrapper } = await api.session();
    function Lists() {
      const root = useRoot();
      const product = useFollow(root.data, 'svc:product', {
        shop_id: 1,
        id: api.mock.store.where('products', 'shop_id', '1')[0]!.id,
      });
      // @ts-expect-error: a product has no list relation, and the types say so
      const list = usePages(product.data, 'svc:products');
      return <p data-testid="error">{list.error instanceof UnknownRelationError ? list.error.message : list.status}</p>;
    }
    render(<Lists />, { wrapper });
    await waitFor(() => expect(screen.getByTestId('error').textContent).toMatch(/svc:products/));
  });
});
