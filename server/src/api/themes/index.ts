/**
 * The theme half of the API: routes on the API mount and on the static mount. Not the relation entries: the
 * registry reads `./relations.ts` directly, since routes build links through `hal`, which reads the registry.
 */
import type { Route } from '../../http/route.js';
import { assetRoutes } from './asset-routes.js';
import { templateRoutes } from './template-routes.js';
import { themeRoutes } from './theme-routes.js';

export { staticRoutes as themeStaticRoutes } from './static-routes.js';

/** Theme, template and asset routes, for the API mount (`{base_url}`). */
export const themeApiRoutes: Route[] = [...themeRoutes, ...templateRoutes, ...assetRoutes];
