/** Who may see what of the events API: an endpoint is its app's and user's; an event, its shop administrator's. */
import type { Call } from '../../http/route.js';
import type { EventRow, WebhookEndpointRow } from '../../store/types.js';

/** Whether `endpoint` is the caller's: of their app and their user. */
export function isOwnEndpoint(call: Call, endpoint: WebhookEndpointRow | undefined): endpoint is WebhookEndpointRow {
  return endpoint?.app_id === call.principal.appId && endpoint.user_id === call.principal.userId;
}

/** Whether the caller may read `event`: its shop's administrator, or for a ping the endpoint's app and user. */
export function mayRead(call: Call, event: EventRow): boolean {
  const { store } = call.context;
  if (event.ping_of !== undefined) return isOwnEndpoint(call, store.get('webhook_endpoints', event.ping_of));
  return event.shop_id !== null && store.get('shops', event.shop_id)?.owner_id === call.principal.userId;
}
