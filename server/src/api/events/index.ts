/** The routes of events, webhook endpoints and deliveries on the API mount. */
import type { Route } from '../../http/route.js';
import { endpointRoutes } from './endpoint-routes.js';
import { eventRoutes } from './event-routes.js';

export const eventApiRoutes: readonly Route[] = [...eventRoutes, ...endpointRoutes];
