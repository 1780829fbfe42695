/** Every route of the core's mounts: the resource API under `{base_url}`, theme files, relation pages. */
import type { Route } from '../http/route.js';
import { openApiRoute } from '../openapi/openapi-route.js';
import { eventApiRoutes } from './events/index.js';
import { orderRoutes } from './orders.js';
import { productRoutes } from './products.js';
import { rootRoutes } from './root.js';
import { shopRoutes } from './shops.js';
import { themeApiRoutes, themeStaticRoutes } from './themes/index.js';

/** The routes under `{base_url}`: the resources, and the OpenAPI document that describes them (and itself). */
export const apiRoutes: readonly Route[] = [
  ...rootRoutes,
  ...shopRoutes,
  ...productRoutes,
  ...orderRoutes,
  ...themeApiRoutes,
  ...eventApiRoutes,
  openApiRoute(() => ({ api: apiRoutes })),
];

/** The routes under `{static_url}`: theme files. */
export const staticRoutes: readonly Route[] = themeStaticRoutes;

export { relationRoutes } from './rels.js';
