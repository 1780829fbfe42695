/**
 * storefront-sdk: a typed HAL client of the Storefront Platform API. Start with `createClient({ baseUrl })`,
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
  JWT_BEARER_GRANT,
  type OnToken,
  type PasswordOptions,
  password,
  pkceChallenge,
  pkceVerifier,
  readImplicitFragment,
  requestToken,
  type TokenEndpointOptions,
  type TokenInfo,
  type TokenRequest,
} from './auth/index.js';
export {
  type CacheEntry,
  type CacheStore,
  createHttpCache,
  type HttpCache,
  type HttpCacheOptions,
  type MemoryStore,
  type MemoryStoreOptions,
  memoryStore,
} from './cache/index.js';
export { type Client, type ClientOptions, createClient } from './client.js';
export type * from './contract/index.js';
export type { Link as HalLink } from './contract/index.js';
export {
  BadRequestError,
  createHttpError,
  type ErrorCode,
  errorFromResponse,
  ForbiddenError,
  HttpError,
  type HttpErrorInit,
  InvalidResponseError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  PreconditionFailedError,
  redactHeaders,
  redactUrl,
  ServerError,
  StorefrontError,
  TemplateVariableError,
  TimeoutError,
  UnauthorizedError,
  UnknownRelationError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors/index.js';
export type {
  ClientEventHandlers,
  ClientEventListener,
  ClientEventName,
  ClientEvents,
} from './http/events.js';
export type { RetryOptions } from './http/retry.js';
export { Entity, type ResponseInfo } from './resource/entity.js';
export { Link, type LinkVerb } from './resource/link.js';
export type * from './resource/representations.js';
export { Results } from './resource/results.js';
export type {
  Edge,
  FollowArgs,
  FollowOptions,
  FollowResult,
  RelationKey,
  ResultsShape,
  Shape,
  ShapeOf,
  UnknownShape,
} from './resource/shape.js';
export type { TemplateValue } from './resource/uri-template.js';
