/** The control API's operations on the team's data (`team.ts`), spread into `CONTROL_OPERATIONS`. */

/** Each kind of the team's data: created, listed, removed (by id). */
export const TEAM_OPERATIONS = {
  'apps.add': { method: 'POST', path: '/apps' },
  'apps.list': { method: 'GET', path: '/apps' },
  'apps.remove': { method: 'DELETE', path: '/apps/:name' },
  'users.add': { method: 'POST', path: '/users' },
  'users.list': { method: 'GET', path: '/users' },
  'users.remove': { method: 'DELETE', path: '/users/:name' },
  'shops.add': { method: 'POST', path: '/shops' },
  'shops.list': { method: 'GET', path: '/shops' },
  'shops.remove': { method: 'DELETE', path: '/shops/:name' },
  'products.add': { method: 'POST', path: '/products' },
  'products.list': { method: 'GET', path: '/products' },
  'products.remove': { method: 'DELETE', path: '/products/:name' },
  'orders.add': { method: 'POST', path: '/orders' },
  'orders.list': { method: 'GET', path: '/orders' },
  'orders.remove': { method: 'DELETE', path: '/orders/:name' },
} as const satisfies Record<string, { method: string; path: string }>;

/** The kinds of the team's data, as the control API's paths name them. */
export const TEAM_KINDS = ['apps', 'users', 'shops', 'products', 'orders'] as const;
