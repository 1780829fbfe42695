/**
 * Every resource a server serves to an admin token of its demo app, read by following links with plain `fetch`:
 * the root's shops, each shop, its products and orders (every page and every detail), its themes (templates and
 * assets embedded) and every asset's bytes (as their MD5). Keyed by path, origins replaced by `ORIGIN`, so that
 * two servers (a source and its imported copy) compare with `toEqual`.
 */
import { createHash } from 'node:crypto';
import { tokenRequest } from '../helpers/test-server.js';

type Json = Record<string, unknown>;
type Links = Record<string, { href: string } | { href: string }[]>;

/** An admin token of the client credentials grant. */
export async function adminToken(origin: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await tokenRequest(
    origin,
    { grant_type: 'client_credentials', scope: 'admin' },
    { clientId, clientSecret },
  );
  if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The resources `origin` serves to `token`, by path; JSON with the origin replaced, files as their MD5. */
export async function servedResources(origin: string, token: string): Promise<Map<string, unknown>> {
  const served = new Map<string, unknown>();
  const normal = (text: string) =>
    JSON.parse(text.replaceAll(origin, 'ORIGIN').replace(/\/preview\/[\w-]+\//g, '/preview/KEY/'));
  const get = async (href: string): Promise<Json> => {
    const response = await fetch(href, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`GET ${href}: ${response.status}`);
    const body = normal(await response.text()) as Json;
    served.set(href.replace(origin, ''), body);
    return body;
  };
  const href = (links: unknown, rel: string) => {
    const link = (links as Links)[rel];
    return (Array.isArray(link) ? link[0] : link)?.href.replace('ORIGIN', origin);
  };
  const list = async (first: string) => {
    const items: Json[] = [];
    for (let next: string | undefined = first; next; ) {
      const page = await get(next);
      items.push(...((page._embedded as { items: Json[] }).items ?? []));
      next = href(page._links, 'next');
    }
    return items;
  };
  const root = await get(`${origin}/v1`);
  const shops = ((root._embedded as { shops?: Json[] }).shops ?? []).map((shop) => href(shop._links, 'self')!);
  served.set('/v1', { shops: (root._embedded as Json).shops });
  for (const shopHref of shops) {
    const shop = await get(shopHref);
    const expand = (rel: string) => {
      const base = href(shop._links, rel)!.replace(/\{[?&][^}]*\}$/, '');
      return `${base}${base.includes('?') ? '&' : '?'}per_page=100`;
    };
    const products = await list(expand('svc:products'));
    for (const product of products) await get(href(product._links, 'self')!);
    const orders = await list(expand('svc:orders'));
    for (const order of orders) await get(href(order._links, 'self')!);
    const themeHref = href(shop._links, 'svc:theme');
    if (!themeHref) continue;
    const themes = [await get(themeHref)];
    const dev = href(themes[0]!._links, 'svc:dev_theme');
    if (dev) themes.push(await get(dev));
    for (const theme of themes) {
      for (const asset of ((theme._embedded as { assets?: Json[] }).assets ?? []) as Json[]) {
        const file = href(asset._links, 'file')!;
        const response = await fetch(file);
        const bytes = new Uint8Array(await response.arrayBuffer());
        served.set(file.replace(origin, ''), createHash('md5').update(bytes).digest('hex'));
      }
    }
  }
  return served;
}
