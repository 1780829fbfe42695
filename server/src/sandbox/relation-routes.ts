/**
 * Which routes a relation's links point to, for fault rules that name a `relation` instead of a `path`: the routes
 * the OpenAPI document files under each relation (`openapi/operations.ts`, checked against the route table), and
 * the links that point to a route filed under another relation or none. A test crawls the API's links and checks
 * each against this (server/test/sandbox/relation-routes.test.ts).
 */
import { relationNames } from '../api/registry.js';
import { OPERATIONS } from '../openapi/operations.js';
import { SandboxError } from './sandbox-error.js';

/**
 * The resource API's mount: fixed, as every path of the server (`core/addresses.ts`: the paths are not
 * relocatable). Its routes also answer with a `.json` or `.jsonp` suffix.
 */
const API_MOUNT = '/v1';

/** Links whose route the document files under another relation, or under none (`METHOD path` on the API mount). */
const LINKED_ALSO: Readonly<Record<string, readonly string[]>> = {
  // A shop's lists: the lists of every shop, with the shop preset in the query.
  'svc:products': ['GET /products'],
  'svc:orders': ['GET /orders'],
  // The production theme's development theme: a theme by id.
  'svc:dev_theme': ['GET /themes/:theme_id'],
  // What an event is about: a product, an order, a theme or a template (an asset's: its file, below).
  'svc:subject': [
    'GET /shops/:shop_id/products/:id',
    'GET /shops/:shop_id/orders/:id',
    'GET /themes/:theme_id',
    'GET /themes/:theme_id/templates/:template_id',
  ],
};

/** Links off the API mount, to `{static_url}`: a theme's preview folder with every file in it, an asset's file. */
const STATIC_LINKS: Readonly<Record<string, readonly string[]>> = {
  'svc:theme_preview': ['GET /static/themes/:theme_id/preview/:key', 'GET /static/themes/:theme_id/preview/:key/*'],
  'svc:subject': ['GET /static/themes/:theme_id/assets/:digest/*'],
};

/** Relations whose links leave the server: no request of theirs reaches a fault rule. */
const ELSEWHERE: Readonly<Record<string, string>> = {
  'svc:web': "the shop's storefront, on a host of its own",
};

/** One route a relation's links point to. */
export interface RelationRoute {
  method: string;
  /** The whole path, `:name` one segment, a trailing `*` anything. */
  path: string;
  /** Whether `.json` and `.jsonp` may follow the path (the API mount's routes). */
  suffixed: boolean;
}

function tableOf(): Map<string, RelationRoute[]> {
  const table = new Map<string, RelationRoute[]>();
  const add = (relation: string, route: string, mount: string) => {
    const [method, path] = route.split(' ') as [string, string];
    const list = table.get(relation) ?? [];
    list.push({ method, path: `${mount}${path}`, suffixed: mount === API_MOUNT });
    table.set(relation, list);
  };
  for (const [route, spec] of Object.entries(OPERATIONS)) if (spec.relation) add(spec.relation, route, API_MOUNT);
  for (const [relation, routes] of Object.entries(LINKED_ALSO))
    for (const route of routes) add(relation, route, API_MOUNT);
  for (const [relation, routes] of Object.entries(STATIC_LINKS)) for (const route of routes) add(relation, route, '');
  return table;
}

let table: Map<string, RelationRoute[]> | undefined;

/** `svc:products` for `products` or `svc:products`; `undefined` for a name that is no relation of the API. */
function fullName(name: string): string | undefined {
  const full = name.startsWith('svc:') ? name : `svc:${name}`;
  return (relationNames() as string[]).includes(full) ? full : undefined;
}

/**
 * The routes of `name` (`svc:products` or `products`) and its full name, or a {@link SandboxError} 400 for a name
 * that is no relation of the API, or one whose links leave the server.
 */
export function relationRoutes(name: string): { relation: string; routes: RelationRoute[] } {
  const relation = fullName(name);
  if (relation === undefined) {
    throw new SandboxError(
      `No relation ${JSON.stringify(name)} in the API. A fault's relation is a "svc:" relation the API's links ` +
        `name ("svc:products", or "products"): the root's links and those of the resources they lead to, each ` +
        `documented at {origin}/rels/{name} and as "x-relation" in {base_url}/openapi. They are: ` +
        `${relationNames().join(', ')}`,
      400,
    );
  }
  if (Object.hasOwn(ELSEWHERE, relation)) {
    throw new SandboxError(`${relation} links to ${ELSEWHERE[relation]}: no request of it reaches this server`, 400);
  }
  table ??= tableOf();
  return { relation, routes: table.get(relation) ?? [] };
}

/** Relations whose links leave the server, which a fault rule cannot name. */
export const RELATIONS_ELSEWHERE: readonly string[] = Object.keys(ELSEWHERE);
