/**
 * The webhook attempts a server made, for `GET /_sandbox/webhooks/deliveries`: the twin of the MSW mock's
 * `webhooks.deliveries()`, read from the store (every process's attempts, on a shared store).
 */
import { deliveryBody } from '../api/events/representations.js';
import type { Addresses } from '../core/types.js';
import type { MockWebhookDelivery } from '../msw/webhooks.js';
import type { Store, WebhookDeliveryRow } from '../store/types.js';

/** An attempt made (succeeded or failed), with the event it carried. */
export type SandboxDelivery = MockWebhookDelivery;

/** The attempts made so far (not those still pending), oldest first: by when each was made, then by id. */
export function storeDeliveries(store: Store, addresses: Addresses): SandboxDelivery[] {
  const made: WebhookDeliveryRow[] = [
    ...store.where('webhook_deliveries', 'status', 'succeeded'),
    ...store.where('webhook_deliveries', 'status', 'failed'),
  ];
  made.sort((a, b) => a.created_on.localeCompare(b.created_on) || Number(a.id) - Number(b.id));
  return made.flatMap((row) => {
    const eventRow = store.get('events', row.event_id);
    // An event pruned (30 days) takes its attempts with it: nothing left to show.
    if (!eventRow) return [];
    return [
      {
        id: row.id,
        event_id: eventRow.public_id,
        event_type: row.event_type,
        endpoint_id: row.endpoint_id,
        attempt: row.attempt,
        status: row.status,
        response_status: row.response_status,
        duration_ms: row.duration_ms,
        error: row.error,
        next_attempt_on: row.next_attempt_on,
        created_on: row.created_on,
        event: JSON.parse(deliveryBody(addresses, eventRow)) as SandboxDelivery['event'],
      },
    ];
  });
}
