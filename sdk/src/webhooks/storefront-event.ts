import type { EventFields, EventType, Link, Links } from '../contract/index.js';

/** The links of an event (`events.md`): `svc:subject` is absent after a delete and on a `ping`. */
export interface EventLinks extends Links {
  self: Link;
  'svc:subject'?: Link;
  'svc:shop'?: Link;
}

/**
 * An event of type `T` as a delivery's body holds it: its fields, whose `data` is that type's, with `_class` and
 * `_links`.
 */
export interface EventOf<T extends EventType> extends EventFields<T> {
  _class: string[];
  _links: EventLinks;
}

/**
 * Any event the SDK knows, as `verifyWebhook` returns it: a union narrowed by `type`, so that after
 * `if (event.type === 'template.updated')` its `data` is a `TemplateEventData`.
 */
export type StorefrontEvent = { [T in EventType]: EventOf<T> }[EventType];

/**
 * Every event type this SDK knows, as a record so that the compiler asks for a type added to the contract. A
 * delivery of a type not listed (a newer server) is acknowledged and left alone by `createWebhookHandler`.
 */
const KNOWN: Record<EventType, 1> = {
  'theme.created': 1,
  'theme.updated': 1,
  'template.created': 1,
  'template.updated': 1,
  'template.deleted': 1,
  'theme_asset.created': 1,
  'theme_asset.updated': 1,
  'theme_asset.deleted': 1,
  'product.created': 1,
  'product.updated': 1,
  'order.created': 1,
  'order.updated': 1,
  ping: 1,
};

/** Whether `type` is one of the event types this SDK knows (and types). */
export function isKnownEventType(type: unknown): type is EventType {
  return typeof type === 'string' && Object.hasOwn(KNOWN, type);
}
