/** A shop's products, searched, loaded page by page through `next` as the list is scrolled to its end. */
import { usePages } from '@storefront-platform/react';
import type { Shop } from '@storefront-platform/sdk';
import { useEffect, useRef, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { price } from './price.js';
import { href } from './route.js';

const PER_PAGE = 20;

export function ProductList({ shop }: { shop: Shop }) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<string>();
  const list = usePages(shop, 'svc:products', { q: search, per_page: PER_PAGE, sort: 'created_on.desc' });
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // Infinite scroll: the next page when the end of the list comes near the viewport.
  useEffect(() => {
    const sentinel = end.current;
    if (!sentinel || !hasNextPage) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '100px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const total = list.data?.pages[0]?.properties.total_items;
  return (
    <section aria-label="Products">
      <form
        className="search"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(query.trim() || undefined);
        }}
      >
        <input
          type="search"
          aria-label="Search products"
          placeholder="Search title, vendor, tags"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="submit">Search</button>
      </form>
      {list.error && <ErrorNote error={list.error} />}
      <p id="count" role="status">
        {total === undefined
          ? 'Loading…'
          : `${list.items.length} of ${total} products · ${list.data?.pages.length} pages`}
      </p>
      <ul className="products">
        {list.items.map((product) => (
          <li key={product.properties.id}>
            <a href={href({ page: 'product', shopId: shop.properties.id, id: product.properties.id })}>
              <span className="title">{product.properties.title}</span>
              <span className="price">
                {price(product.properties.price, shop.properties.currency_code, shop.properties.locale)}
              </span>
              {product.properties.status !== 'visible' && <span className="badge">{product.properties.status}</span>}
            </a>
          </li>
        ))}
      </ul>
      <div ref={end} id="list-end">
        {isFetchingNextPage ? 'Loading more…' : hasNextPage ? '' : list.data ? 'That is all.' : ''}
      </div>
    </section>
  );
}
