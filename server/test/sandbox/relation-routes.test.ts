/**
 * The routes a fault rule's `relation` matches (sandbox/relation-routes.ts) are where the API's links of that
 * relation point: every `svc:` link met crawling a server's resources is matched by its relation's rule, and every
 * relation of the registry has routes or is known to link off the server.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { relationNames } from '../../src/api/registry.js';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { connectSandbox } from '../../src/index.js';
import { matcherOf } from '../../src/sandbox/fault-match.js';
import { RELATIONS_ELSEWHERE, relationRoutes } from '../../src/sandbox/relation-routes.js';

let server: StorefrontServer;
let token: string;
beforeAll(async () => {
  server = await createServer({
    port: 0,
    products: 3,
    control: true,
    explorer: false,
  });
  const control = connectSandbox(server.control!);
  token = (await control.issueToken({ scope: ['admin', 'public'] })).accessToken;
  // Events (their `svc:subject`: a theme, a product), a webhook endpoint and its deliveries: links to crawl.
  const shop = server.store.all('shops')[0]!;
  await fetch(`${server.baseUrl}/webhook_endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/webhooks', events: ['*'] }),
  });
  await fetch(`${server.baseUrl}/shops/${shop.id}/themes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  await control.trigger('product.updated', { shop: shop.id });
  await control.webhooks.drain();
});
afterAll(() => server.close());

interface Link {
  href: string;
  method?: string;
}

/** Every `svc:` link of the resources reached from the root by GET links, as `[relation, method, path]`. */
async function crawl(): Promise<[string, string, string][]> {
  const seen = new Set<string>();
  const found: [string, string, string][] = [];
  const queue = [`${server.baseUrl}/`];
  while (queue.length > 0 && seen.size < 400) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok || !response.headers.get('content-type')?.includes('json')) continue;
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) {
        for (const item of value) visit(item);
        return;
      }
      if (typeof value !== 'object' || value === null) return;
      const links = (value as { _links?: Record<string, Link | Link[]> })._links ?? {};
      for (const [rel, entry] of Object.entries(links)) {
        if (!rel.startsWith('svc:')) continue;
        for (const link of Array.isArray(entry) ? entry : [entry]) {
          // Template variables filled with a sample value, the query's left out: the path is what is matched.
          const href = link.href.replace(/\{[?&][^}]*\}/g, '').replace(/\{[^}]*\}/g, '1');
          const target = new URL(href);
          const method = (link.method ?? 'get').toUpperCase();
          found.push([rel, method, target.pathname]);
          if (method === 'GET' && target.origin === server.origin) queue.push(href);
        }
      }
      for (const [key, nested] of Object.entries(value)) if (key !== '_links') visit(nested);
    };
    visit(await response.json());
  }
  return found;
}

test('each svc: link the API sends is matched by a rule naming its relation', async () => {
  const links = await crawl();
  const relations = new Set(links.map(([rel]) => rel));
  expect(relations.size).toBeGreaterThanOrEqual(25);
  for (const [rel, method, path] of links) {
    if (RELATIONS_ELSEWHERE.includes(rel)) continue;
    const matches = matcherOf({ relation: rel, method: null, path: null });
    expect(matches(method, path), `${rel}: ${method} ${path}`).toBe(true);
  }
  // The one link the crawl above cannot reach a route of: the shop's storefront, off the server.
  expect(links.some(([rel]) => rel === 'svc:web')).toBe(true);
});

test('every relation of the registry has its routes, or links off the server', () => {
  for (const name of relationNames()) {
    if (RELATIONS_ELSEWHERE.includes(name)) {
      expect(() => relationRoutes(name)).toThrow(/no request of it reaches this server/);
    } else {
      expect(relationRoutes(name).routes.length, name).toBeGreaterThan(0);
    }
  }
  expect(relationRoutes('products').relation).toBe('svc:products');
});
