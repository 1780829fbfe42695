/**
 * Every link the server sends leads to a path and verb the served document describes: a client generated from the
 * document (openapi-fetch, say) can follow what the API links to. The walk reads the resources reachable from the
 * root by GET links (one of each kind of address: `/shops/1` stands for every shop), with a webhook endpoint and a
 * development theme made first so that their links are seen too.
 */
import { describe, expect, it } from 'vitest';
import { clientToken, useTestServer } from '../helpers/test-server.js';

type Json = Record<string, unknown>;
interface HalLink {
  href: string;
  method?: string;
  templated?: boolean;
  type?: string;
}

const t = useTestServer({ products: 2 });

/**
 * The document's path templates as patterns, with the verbs of each. A `file_name` may hold one folder, its `/`
 * sent as it is or encoded (the document says so of each).
 */
function documentedPaths(document: Json): { pattern: RegExp; methods: string[] }[] {
  return Object.entries(document.paths as Record<string, Json>).map(([path, item]) => {
    const variable = (part: string) => (part === '{file_name}' ? '[^/]+(/[^/]+)?' : '[^/]+');
    const source = path
      .split(/(\{[^}]+\})/)
      .map((part, i) => (i % 2 ? variable(part) : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    return { pattern: new RegExp(`^${source}$`), methods: Object.keys(item) };
  });
}

/** A link's path on the server's origin, a template's query part dropped and its variables as segments. */
function linkPath(href: string, origin: string): string | undefined {
  const bare = href.replace(/\{[?&][^}]*\}/g, '').replace(/\{[^}]+\}/g, 'x');
  const url = new URL(bare, origin);
  return url.origin === origin ? decodeURIComponent(url.pathname) : undefined;
}

function linksOf(resource: Json): [string, HalLink][] {
  const own = Object.entries((resource._links ?? {}) as Record<string, HalLink | HalLink[]>)
    .filter(([rel]) => rel !== 'curies')
    .flatMap(([rel, value]) => (Array.isArray(value) ? value : [value]).map((link): [string, HalLink] => [rel, link]));
  const embedded = Object.values((resource._embedded ?? {}) as Record<string, Json[]>).flat();
  return [...own, ...embedded.flatMap(linksOf)];
}

describe('the links the server sends', () => {
  it('each lead to a path and verb of the served document', async () => {
    const server = t();
    const token = await clientToken(server, 'admin');
    const { origin } = new URL(server.baseUrl);
    const get = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
      return response.headers.get('content-type')?.includes('json') ? ((await response.json()) as Json) : undefined;
    };
    const paths = documentedPaths((await get(`${server.baseUrl}/openapi.json`))!);
    await get(`${server.baseUrl}/shops/1/themes`, { method: 'POST' });
    await get(`${server.baseUrl}/webhook_endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://hooks.example.com/in', events: ['order.created'] }),
    });

    const undocumented = new Set<string>();
    const seen = new Set<string>();
    const queue = [`${server.baseUrl}/`];
    let read = 0;
    while (queue.length) {
      const resource = await get(queue.shift()!);
      if (!resource) continue;
      read++;
      for (const [rel, link] of linksOf(resource)) {
        const path = linkPath(link.href, origin);
        // The explorer (`service-doc`) is a page for people, not an operation of the API.
        if (path === undefined || rel === 'service-doc') continue;
        const method = (link.method ?? 'get').toLowerCase();
        if (!paths.some((p) => p.pattern.test(path) && p.methods.includes(method))) {
          undocumented.add(`${rel}: ${method.toUpperCase()} ${path}`);
        }
        // One resource of each kind of address.
        const kind = path.replace(/\/(\d+|[a-z]+_[a-z0-9]{8,})(?=[/.]|$)/g, '/n');
        // A template is read without its query variables; one with a path variable left is not read.
        const url = link.href.replace(/\{[?&][^}]*\}/g, '');
        if (method === 'get' && !url.includes('{') && !link.type && !seen.has(kind)) {
          seen.add(kind);
          queue.push(new URL(url, origin).href);
        }
      }
    }
    expect(read).toBeGreaterThan(10);
    expect([...undocumented]).toEqual([]);
  });
});
