/** Every route of the resource API under `{base_url}`, and the mounts beside it. */
import type { Route } from '../http/route.js';
import { orderRoutes } from './orders.js';
import { productRoutes } from './products.js';
import { rootRoutes } from './root.js';
import { shopRoutes } from './shops.js';

/** The routes under `{base_url}`. */
export const apiRoutes: readonly Route[] = [...rootRoutes, ...shopRoutes, ...productRoutes, ...orderRoutes];

/** The routes under `{static_url}`: theme files. */
export const staticRoutes: readonly Route[] = [];

export { relationRoutes } from './rels.js';
