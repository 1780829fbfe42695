/**
 * Events and webhook endpoints (`shared/design/events.md`): the resources an app reads and the bodies the
 * server POSTs to its endpoints, delivered per Standard Webhooks 1.0.
 */
import type { OrderSummaryFields, ProductSummaryFields, TemplateContentType, ThemeAssetFields } from './resources.js';

/**
 * What the subject looked like once the write was done: its `ETag`, for a conditional GET of `svc:subject` that
 * costs a 304 while the resource has not changed since. Absent after a delete.
 */
export interface SubjectValidator {
  /** The strong `ETag` an admin's GET of the subject answered right after the write. */
  etag?: string;
}

/** `data` of the `theme.*` events: the theme's summary fields. */
export interface ThemeEventData extends SubjectValidator {
  id: string;
  title: string;
  production: boolean;
  updated_on: string;
}

/** `data` of the `template.*` events: the template without its body (follow `svc:subject` for it). */
export interface TemplateEventData extends SubjectValidator {
  id: string;
  theme_id: string;
  file_name: string;
  name: string;
  content_type: TemplateContentType;
  updated_on: string;
}

/** `data` of the `theme_asset.*` events: the asset's fields without its bytes. */
export interface ThemeAssetEventData extends ThemeAssetFields, SubjectValidator {
  theme_id: string;
}

/** `data` of the `product.*` events: the product's summary fields. */
export interface ProductEventData extends ProductSummaryFields, SubjectValidator {}

/** `data` of the `order.*` events: the order's summary fields. */
export interface OrderEventData extends OrderSummaryFields, SubjectValidator {}

/** `data` of a `ping`: which endpoint was asked to be tested. */
export interface PingEventData {
  endpoint_id: string;
}

/**
 * Every event type and its `data`. The list grows only by adding: a receiver should ignore types it does not
 * know.
 */
export interface EventDataMap {
  'theme.created': ThemeEventData;
  'theme.updated': ThemeEventData;
  'template.created': TemplateEventData;
  'template.updated': TemplateEventData;
  'template.deleted': TemplateEventData;
  'theme_asset.created': ThemeAssetEventData;
  'theme_asset.updated': ThemeAssetEventData;
  'theme_asset.deleted': ThemeAssetEventData;
  'product.created': ProductEventData;
  'product.updated': ProductEventData;
  'order.created': OrderEventData;
  'order.updated': OrderEventData;
  ping: PingEventData;
}

/** Name of an event type. */
export type EventType = keyof EventDataMap;

/**
 * An event's fields: what `GET svc:event` answers and what a webhook delivery's body holds (with `_class` and
 * `_links`). Generic in its type so that `data` narrows with it.
 */
export interface EventFields<T extends EventType = EventType> {
  /** `evt_…`: the Standard's `webhook-id`, the same on every attempt; unique across processes. */
  id: string;
  type: T;
  created_on: string;
  /** The shop the write was in; null for a `ping`, which is about an endpoint. */
  shop_id: string | null;
  /**
   * The id of the API request whose write recorded the event: that request's `X-Request-Id` (the app's own when it
   * sent a sane one), so that a delivery joins the write's log lines and answer. A delivery repeats it in its
   * `Storefront-Request-Id` header. Null when no API request caused it (a trigger, the control API).
   */
  request_id: string | null;
  data: EventDataMap[T];
}

/** Whether an endpoint is sent events. */
export type WebhookEndpointStatus = 'enabled' | 'disabled';

/** A webhook endpoint of the app whose token created it. */
export interface WebhookEndpointFields {
  id: string;
  /** Where events are POSTed. */
  url: string;
  /** The event types sent to it, or `["*"]` for all. */
  events: (EventType | '*')[];
  description: string;
  status: WebhookEndpointStatus;
  /** Why the server disabled it (`410 Gone`, 5 days of failures); null when enabled or disabled by the app. */
  disabled_reason: string | null;
  created_on: string;
  updated_on: string;
  /**
   * `whsec_` + base64 of 32 random bytes: only in the answers that create the endpoint or rotate its secret.
   * Keep it: it is never shown again.
   */
  secret?: string;
}

/** Outcome of one delivery attempt. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One attempt to deliver an event to an endpoint. */
export interface WebhookDeliveryFields {
  id: string;
  event_id: string;
  event_type: EventType;
  endpoint_id: string;
  /** 1 for the first attempt. */
  attempt: number;
  status: WebhookDeliveryStatus;
  /** The receiver's status; null when none came (pending, refused address, timeout, connection error). */
  response_status: number | null;
  duration_ms: number | null;
  /** What went wrong, when it did. */
  error: string | null;
  /** When this attempt is due (pending) or when the next one is (failed, to be retried); null when none. */
  next_attempt_on: string | null;
  /**
   * When this attempt was sent (the `webhook-timestamp` it was signed with, to the millisecond); null while it is
   * pending, and for one never sent (its endpoint deleted or disabled, its event pruned).
   */
  attempted_on: string | null;
  /** When this attempt was scheduled: with the event for the first, at the failure of the one before for a retry. */
  created_on: string;
}
