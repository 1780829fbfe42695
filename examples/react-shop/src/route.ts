import { useEffect, useState } from 'react';

/** The pages of the shop, in the address's fragment (no router: three pages). */
export type Route = { page: 'products' } | { page: 'product'; shopId: string; id: string } | { page: 'templates' };

function parse(hash: string): Route {
  const product = /^#\/products\/([^/]+)\/([^/]+)$/.exec(hash);
  if (product) return { page: 'product', shopId: decodeURIComponent(product[1]!), id: decodeURIComponent(product[2]!) };
  return hash === '#/templates' ? { page: 'templates' } : { page: 'products' };
}

export function href(route: Route): string {
  if (route.page === 'product') return `#/products/${encodeURIComponent(route.shopId)}/${encodeURIComponent(route.id)}`;
  return route.page === 'templates' ? '#/templates' : '#/';
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parse(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
