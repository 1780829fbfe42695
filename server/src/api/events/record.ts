/**
 * Writing an event in the same commit as the write it reports (`shared/design/events.md`): the event row and one
 * pending delivery per endpoint that wants it are staged in the write's transaction, so that an acknowledged
 * write has exactly one event, and every endpoint its first attempt, while a write that failed or was cut by a
 * crash has neither. Delivering is another loop's (`webhooks/deliverer.ts`).
 */
import { type EventDataMap, type EventType, encodeBase64 } from '@storefront-platform/sdk/internal';
import type { CoreContext } from '../../core/types.js';
import type { EventRow, Transaction, WebhookDeliveryRow, WebhookEndpointRow } from '../../store/types.js';

const DAY_MS = 86_400_000;
/** Events and their deliveries are kept this long (events.md). */
export const EVENT_RETENTION_MS = 30 * DAY_MS;
/** A purge scans every event: at most this often per store, on the write path of a new event. */
const PURGE_INTERVAL_MS = 3_600_000;
/**
 * When each core last purged, by its addresses: the one object every request's context shares (a request's context
 * and store may be its own: `core/idempotency.ts` wraps the store of a keyed POST).
 */
const lastPurge = new WeakMap<object, number>();

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `prefix` and 24 random base-36 characters (124 bits): ids that no two processes or data sets share. */
export function randomId(prefix: string): string {
  let out = prefix;
  for (const byte of crypto.getRandomValues(new Uint8Array(24))) out += ALPHABET[byte % 36];
  return out;
}

/** A webhook secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${encodeBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** An event about to be written. */
export interface NewEvent<T extends EventType = EventType> {
  type: T;
  shopId: string | null;
  data: EventDataMap[T];
  /** The subject's absolute URL (it is stored as a path on the origin); absent after a delete. */
  subject?: string;
}

/** Whether `endpoint` is sent events of `type`. */
export function wants(endpoint: WebhookEndpointRow, type: EventType): boolean {
  return endpoint.status === 'enabled' && (endpoint.events.includes('*') || endpoint.events.includes(type));
}

/** Which event an attempt delivers, to which endpoint, and which attempt of the series it is (1: the first). */
export type AttemptOf = Pick<WebhookDeliveryRow, 'event_id' | 'event_type' | 'endpoint_id' | 'attempt'>;

/** Stages a pending attempt, due at `due` (epoch ms on the core's clock), written at `now`. */
export function stageDelivery(tx: Transaction, attempt: AttemptOf, due: number, now: number) {
  return tx.insert('webhook_deliveries', {
    ...attempt,
    status: 'pending',
    response_status: null,
    duration_ms: null,
    error: null,
    due_at: due,
    next_attempt_on: new Date(due).toISOString(),
    attempted_on: null,
    created_on: new Date(now).toISOString(),
  });
}

/**
 * Stages `event` and its deliveries in `tx`: to every enabled endpoint that wants its type and whose user
 * administers its shop. Call it inside the write that the event reports, once per write.
 */
export function recordEvent<T extends EventType>(tx: Transaction, context: CoreContext, event: NewEvent<T>): EventRow {
  const now = context.clock.now();
  const shop = event.shopId === null ? undefined : tx.get('shops', event.shopId);
  const row = tx.insert('events', {
    public_id: randomId('evt_'),
    type: event.type,
    shop_id: event.shopId,
    created_on: new Date(now).toISOString(),
    data: event.data,
    ...(event.subject === undefined ? {} : { subject: pathOnOrigin(context, event.subject) }),
    ...causedBy(context),
  }) as EventRow<T>;
  if (shop) {
    for (const endpoint of context.store.all('webhook_endpoints')) {
      if (endpoint.user_id === shop.owner_id && wants(endpoint, event.type)) {
        stageDelivery(tx, { event_id: row.id, event_type: event.type, endpoint_id: endpoint.id, attempt: 1 }, now, now);
      }
    }
  }
  purgeIfDue(tx, context, now);
  return row;
}

/** Stages a `ping` of `endpoint`: an event of no shop, sent to that endpoint alone. */
export function recordPing(tx: Transaction, context: CoreContext, endpoint: WebhookEndpointRow) {
  const now = context.clock.now();
  const event = tx.insert('events', {
    public_id: randomId('evt_'),
    type: 'ping',
    shop_id: null,
    created_on: new Date(now).toISOString(),
    data: { endpoint_id: endpoint.id },
    ping_of: endpoint.id,
    ...causedBy(context),
  });
  purgeIfDue(tx, context, now);
  return stageDelivery(tx, { event_id: event.id, event_type: 'ping', endpoint_id: endpoint.id, attempt: 1 }, now, now);
}

/** The request an event is recorded by, when an API request's write records it (`CoreContext.requestId`). */
function causedBy(context: CoreContext): Pick<EventRow, 'request_id'> {
  return context.requestId === undefined ? {} : { request_id: context.requestId };
}

function pathOnOrigin(context: CoreContext, url: string): string {
  const { origin } = context.addresses;
  return url.startsWith(origin) ? url.slice(origin.length) : url;
}

/** Deletes events older than the retention, with their deliveries, at most once per interval per core. */
function purgeIfDue(tx: Transaction, context: CoreContext, now: number): void {
  const last = lastPurge.get(context.addresses);
  if (last !== undefined && now - last < PURGE_INTERVAL_MS) return;
  lastPurge.set(context.addresses, now);
  const { store } = context;
  const cutoff = new Date(now - EVENT_RETENTION_MS).toISOString();
  const old = new Set<string>();
  // Oldest first: stop at the first event within the retention.
  for (const event of store.all('events')) {
    if (event.created_on >= cutoff) break;
    old.add(event.id);
    tx.delete('events', event.id);
  }
  if (old.size === 0) return;
  for (const delivery of store.all('webhook_deliveries')) {
    if (old.has(delivery.event_id)) tx.delete('webhook_deliveries', delivery.id);
  }
}
