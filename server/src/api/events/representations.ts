/**
 * The HAL representations of events, webhook endpoints and delivery attempts (`shared/design/events.md`). An
 * event's representation is also the body of its deliveries, so it is built from the row and the addresses alone.
 */
import type { WebhookDeliveryFields } from '@storefront-platform/sdk/internal';
import type { Addresses } from '../../core/types.js';
import type { EventRow, Store, WebhookDeliveryRow, WebhookEndpointRow } from '../../store/types.js';
import { type Hal, halEntity, type LinksOf, link, resource } from '../hal.js';
import { shopUrl } from '../urls.js';
import { deliveriesUrl, deliveryUrl, endpointUrl, eventUrl } from './urls.js';

/** An event, as `GET svc:event` answers it and as its deliveries carry it. */
export function eventResource(a: Addresses, event: EventRow): Hal<'event'> {
  const links: LinksOf<'event'> = { self: link('self', eventUrl(a, event.public_id)) };
  if (event.subject !== undefined) links['svc:subject'] = link('svc:subject', a.origin + event.subject);
  if (event.shop_id !== null) links['svc:shop'] = link('svc:shop', shopUrl(a, event.shop_id));
  const fields = {
    id: event.public_id,
    type: event.type,
    created_on: event.created_on,
    shop_id: event.shop_id,
    request_id: event.request_id ?? null,
    data: event.data,
  };
  return resource('event', fields, links);
}

const decoder = new TextDecoder();

/**
 * The body of a delivery of `event`: the event as `GET svc:event` answers it, and a newline. A receiver whose
 * framework parsed the JSON and serialised it again (the signatures' most common failure) is told so: the SDK's
 * verifier checks for the newline.
 */
export function deliveryBody(a: Addresses, event: EventRow): string {
  const document = halEntity(a, eventResource(a, event), Date.parse(event.created_on));
  return `${decoder.decode(document.body as Uint8Array)}\n`;
}

/** An endpoint; `secret` only in the answers that create or rotate it. */
export function endpointResource(a: Addresses, endpoint: WebhookEndpointRow, secret?: string): Hal<'webhookEndpoint'> {
  const href = endpointUrl(a, endpoint.id);
  const links: LinksOf<'webhookEndpoint'> = {
    self: link('self', href),
    'svc:update_webhook_endpoint': link('svc:update_webhook_endpoint', href),
    'svc:delete_webhook_endpoint': link('svc:delete_webhook_endpoint', href),
    'svc:rotate_webhook_secret': link('svc:rotate_webhook_secret', `${href}/rotate_secret`),
    'svc:ping_webhook_endpoint': link('svc:ping_webhook_endpoint', `${href}/ping`),
    'svc:deliveries': link('svc:deliveries', deliveriesUrl(a, endpoint.id)),
  };
  const fields = {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    status: endpoint.status,
    disabled_reason: endpoint.disabled_reason,
    created_on: endpoint.created_on,
    updated_on: endpoint.updated_on,
    ...(secret === undefined ? {} : { secret }),
  };
  return resource('webhookEndpoint', fields, links);
}

/** A delivery attempt; its event is looked up for its public id (`undefined` once pruned). */
export function deliveryResource(
  a: Addresses,
  store: Pick<Store, 'get'>,
  delivery: WebhookDeliveryRow,
): Hal<'webhookDelivery'> {
  const event = store.get('events', delivery.event_id);
  const links: LinksOf<'webhookDelivery'> = { self: link('self', deliveryUrl(a, delivery.id)) };
  if (event) links['svc:event'] = link('svc:event', eventUrl(a, event.public_id));
  links['svc:webhook_endpoint'] = link('svc:webhook_endpoint', endpointUrl(a, delivery.endpoint_id));
  if (event) links['svc:resend_event'] = link('svc:resend_event', `${deliveryUrl(a, delivery.id)}/resend`);
  // Deliveries are pruned with their events, in the same write: the event is there.
  return resource('webhookDelivery', deliveryFields(delivery, event?.public_id ?? ''), links);
}

/**
 * A delivery attempt's fields, as the API and the sandbox's list show it: the row's, with the event's public id
 * (`eventId`, the `evt_…`) for its store id.
 */
export function deliveryFields(row: WebhookDeliveryRow, eventId: string): WebhookDeliveryFields {
  return {
    id: row.id,
    event_id: eventId,
    event_type: row.event_type,
    endpoint_id: row.endpoint_id,
    attempt: row.attempt,
    status: row.status,
    response_status: row.response_status,
    duration_ms: row.duration_ms,
    error: row.error,
    next_attempt_on: row.next_attempt_on,
    // Attempts recorded by servers of before this field have none.
    attempted_on: row.attempted_on ?? null,
    created_on: row.created_on,
  };
}
