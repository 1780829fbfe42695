/**
 * @storefront-platform/sdk: a typed HAL client of the Storefront Platform API. Start with `createClient({ baseUrl })`,
 * then `client.root()` and `follow` relations by name.
 */
export {
  type AuthorizedOptions,
  type AuthorizeRequest,
  type AuthorizeUrlOptions,
  type AuthStrategy,
  authorized,
  authorizeUrl,
  type BearerOptions,
  bearer,
  type ClientCredentials,
  type ClientCredentialsOptions,
  type Credentials,
  clientCredentials,
  type ExchangeCodeOptions,
  exchangeCode,
  type ImplicitFragmentOptions,
  JWT_BEARER_GRANT,
  type OnAuthorizationLost,
  type OnToken,
  type PasswordOptions,
  password,
  pkceChallenge,
  pkceVerifier,
  readImplicitFragment,
  type TokenEndpointOptions,
  type TokenInfo,
} from './auth/index.js';
export { createMemoryTokenStore, type SharedTokenOptions, type TokenStore } from './auth/token-store.js';
export {
  type CacheEntry,
  type CacheStore,
  createHttpCache,
  createMemoryCacheStore,
  type HttpCache,
  type HttpCacheOptions,
  type MemoryCacheStore,
  type MemoryCacheStoreOptions,
} from './cache/index.js';
export { type Client, type ClientOptions, createClient } from './client.js';
// The wire contract, deliberately: what entities hold (fields), what users pass (bodies, queries), what errors
// carry (bodies), and the documents themselves; the relation maps stay internal to the typing.
export type {
  CreateTemplateBody,
  CreateThemeAssetBody,
  CreateWebhookEndpointBody,
  ErrorBody,
  EventDataMap,
  EventFields,
  EventQuery,
  EventType,
  FieldError,
  HalResource,
  Link as HalLink,
  OAuthErrorBody,
  OrderAddress,
  OrderContact,
  OrderEventData,
  OrderFields,
  OrderLineItemFields,
  OrderQuery,
  OrderSort,
  OrderStatus,
  OrderSummaryFields,
  PagingVars,
  PingEventData,
  ProductEventData,
  ProductFields,
  ProductQuery,
  ProductSort,
  ProductStatus,
  ProductSummaryFields,
  ProductVariantFields,
  RepresentationName,
  ResultsFields,
  RootFields,
  Scope,
  ShopFields,
  ShopQuery,
  ShopSummaryFields,
  SubjectValidator,
  TemplateContentType,
  TemplateEventData,
  TemplateFields,
  ThemeAssetEventData,
  ThemeAssetFields,
  ThemeEventData,
  ThemeFields,
  UpdateTemplateBody,
  UpdateThemeBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryFields,
  WebhookDeliveryStatus,
  WebhookEndpointFields,
  WebhookEndpointStatus,
} from './contract/index.js';
// The API's limits, which the server enforces: an app can check a file before sending it.
export { API_LIMITS, ASSET_EXTENSIONS } from './contract/limits.js';
export {
  AuthorizationLostError,
  BadRequestError,
  type ErrorCode,
  type FollowHop,
  ForbiddenError,
  HttpError,
  type HttpErrorInit,
  InvalidResponseError,
  type InvalidResponseInit,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  OAuthError,
  PageLoopError,
  PayloadTooLargeError,
  PreconditionFailedError,
  ResponseTooLargeError,
  type ResponseTooLargeInit,
  ServerError,
  StorefrontError,
  TemplateVariableError,
  TimeoutError,
  TokenStoreError,
  UnauthorizedError,
  UnknownRelationError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors/index.js';
export type { KyHooks, KyInstance, RetryOptions } from './http/client-ky.js';
export type {
  ClientEventHandlers,
  ClientEventListener,
  ClientEventName,
  ClientEvents,
} from './http/events.js';
export { readRetryAfter } from './http/retry-after.js';
export { createRateBudget, type RateBudget, type RateLimitReading, readRateLimit } from './pacing/index.js';
export {
  type EmbeddedEntity,
  Entity,
  type FollowFurther,
  type FollowPromise,
  type ResponseInfo,
  type UnknownShape,
} from './resource/entity.js';
export { Link, type LinkVerb } from './resource/link.js';
export type * from './resource/representations.js';
export { Results, type ResultsShape } from './resource/results.js';
export type { Edge, EdgeFor, FollowArgs, FollowOptions, FollowResult, RelationKey, Shape } from './resource/shape.js';
export type { ShapeOf } from './resource/shape-of.js';
// Bounded concurrency for many calls at once (uploading a theme's files, reading many products): what the themes CLI
// and the server's store use.
export { mapLimited } from './shared/map-limited.js';
export { maxThemeDocumentBytes } from './shared/theme-document.js';
