/**
 * The webhook attempts a server made, for `GET /_sandbox/webhooks/deliveries`: the twin of the MSW mock's
 * `webhooks.deliveries()`, read from the store (every process's attempts, on a shared store).
 */

import type { EventFields, WebhookDeliveryFields } from '@storefront-platform/sdk/internal';
import { deliveryBody, deliveryFields } from '../api/events/representations.js';
import type { Addresses } from '../core/types.js';
import type { Store, WebhookDeliveryRow } from '../store/types.js';

/** An event as a delivery carries it: its fields, `_class` and `_links` (`self`, `svc:subject`, `svc:shop`). */
export interface DeliveredEvent extends EventFields {
  _class: string[];
  _links: Record<string, { href: string }>;
}

/**
 * One attempt made: the fields of the API's `webhookDelivery` representation (`event_id` the event's public
 * `evt_…` id), and the event it carried.
 */
export interface SandboxDelivery extends WebhookDeliveryFields {
  /** The event the attempt carried, parsed from the body. */
  event: DeliveredEvent;
}

/** The MSW mock's name of a {@link SandboxDelivery}. */
export type MockWebhookDelivery = SandboxDelivery;

/** The attempts made so far (not those still pending), oldest first: by when each was made, then by id. */
export function storeDeliveries(store: Store, addresses: Addresses): SandboxDelivery[] {
  const made: WebhookDeliveryRow[] = [
    ...store.where('webhook_deliveries', 'status', 'succeeded'),
    ...store.where('webhook_deliveries', 'status', 'failed'),
  ];
  const madeOn = (row: WebhookDeliveryRow) => row.attempted_on ?? row.created_on;
  made.sort((a, b) => madeOn(a).localeCompare(madeOn(b)) || Number(a.id) - Number(b.id));
  return made.flatMap((row) => {
    const eventRow = store.get('events', row.event_id);
    // An event pruned (30 days) takes its attempts with it: nothing left to show.
    if (!eventRow) return [];
    return [madeDelivery(row, JSON.parse(deliveryBody(addresses, eventRow)) as DeliveredEvent)];
  });
}

/** An attempt made, as the mock and the control API list it: its row's fields with the event it carried. */
export function madeDelivery(row: WebhookDeliveryRow, event: DeliveredEvent): SandboxDelivery {
  return { ...deliveryFields(row, event.id), event };
}
