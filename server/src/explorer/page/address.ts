/**
 * The page's address holds the resource shown: `/explorer/v1/shops/1.json` shows `{origin}/v1/shops/1.json`,
 * so that back, forward, reload and a copied address all land on the same resource. A resource on another
 * origin goes into `?url=`.
 */

const PREFIX = '/explorer';

/** The page address showing the API resource at `url`. */
export function pageAddress(url: string, apiOrigin: string): string {
  const target = new URL(url);
  if (target.origin !== apiOrigin) return `${PREFIX}/?url=${encodeURIComponent(url)}`;
  return `${PREFIX}${target.pathname}${target.search}`;
}

/** The API resource the page at `location` shows; the API root for the explorer's own root. */
export function resourceAt(location: Location | URL, apiOrigin: string, baseUrl: string): string {
  const path = location.pathname.startsWith(PREFIX) ? location.pathname.slice(PREFIX.length) : '/';
  if (path === '' || path === '/') return new URLSearchParams(location.search).get('url') ?? baseUrl;
  return `${apiOrigin}${path}${location.search}`;
}
