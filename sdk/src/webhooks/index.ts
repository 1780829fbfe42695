/**
 * @storefront-platform/sdk/webhooks: receiving the events the Storefront Platform POSTs to an app (Standard
 * Webhooks 1.0): `verifyWebhook` on Web Crypto alone (every runtime, no `node:` module), `signTestWebhook` for an
 * app's tests, the typed events, `createWebhookHandler` for fetch-style servers and `toNodeListener` for Node's
 * `http` and Express, and `eventEntity` to follow an event to its resource. A subpath of its own: the main entry
 * carries none of it, and an app that imports only `verifyWebhook` carries no handler.
 *
 * @packageDocumentation
 */
export type {
  EventDataMap,
  EventFields,
  EventType,
  OrderEventData,
  PingEventData,
  ProductEventData,
  SubjectValidator,
  TemplateEventData,
  ThemeAssetEventData,
  ThemeEventData,
} from '../contract/index.js';
export type { WebhookErrorCode } from '../errors/codes.js';
export { WebhookVerificationError } from '../errors/webhook-verification-error.js';
export {
  createMemoryDedupeStore,
  type DedupeState,
  type DedupeStore,
  type MemoryDedupeStoreOptions,
} from './dedupe-store.js';
export { type EventEntity, eventEntity } from './event-entity.js';
export {
  type NodeListenerOptions,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  toNodeListener,
} from './node-listener.js';
export type { RawBody } from './raw-body.js';
export {
  type SignedTestWebhook,
  type SignTestWebhookOptions,
  signTestWebhook,
  type TestEvent,
} from './sign-test-webhook.js';
export type { WebhookSecrets } from './signature.js';
export type { EventLinks, EventOf, StorefrontEvent } from './storefront-event.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookClock,
  type WebhookHeaders,
} from './verify-webhook.js';
export {
  createWebhookHandler,
  type WebhookFailure,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookHandlers,
} from './webhook-handler.js';
