import type { Client } from '../client.js';
import type { Entity } from '../resource/entity.js';
import type { ShapeOf } from '../resource/shape-of.js';
import type { StorefrontEvent } from './storefront-event.js';

/** An event as an entity of a client: `follow('svc:subject')`, `follow('svc:shop')`, typed by the contract. */
export type EventEntity = Entity<ShapeOf<'event'>>;

/**
 * The entity of a delivered `event` in `client` (authenticated as an admin of its shop), without a request: its
 * links lead on, `await eventEntity(client, event).follow('svc:subject')` to the resource it is about (absent after
 * a delete and on a `ping`: test with `can('svc:subject')`).
 *
 * That GET is conditional through the client's HTTP cache: when the cache holds the subject it sends that copy's
 * `ETag` as `If-None-Match`, and a resource unchanged since costs a 304, answered from the copy
 * (`subject.response.revalidated`). The validator sent is the cached copy's rather than the event's `data.etag`:
 * the two are the same when the copy is the version the event reports, and otherwise only the copy's can turn
 * into a body, where a 304 to `data.etag` would leave nothing to show. Without a cached copy (or with
 * `cache: false`) the GET is plain and answered in full. Whether the subject is still the version the event
 * reports: `subject.response?.headers.get('etag') === event.data.etag`.
 */
export function eventEntity(client: Client, event: StorefrontEvent): EventEntity {
  const self = event._links?.self?.href;
  if (typeof self !== 'string') throw new TypeError(`eventEntity: event ${event.id} has no self link`);
  return client.restore<EventEntity>(event as unknown as Parameters<Client['restore']>[0], self);
}
