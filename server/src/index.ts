/**
 * `@storefront-platform/server`: the reference server (`createServer`), its parts for embedding (the core, the
 * Express shell) and its data (stores, demo seed).
 */

export {
  TRIGGER_TYPES,
  TriggerError,
  type TriggerOptions,
  type TriggerType,
  triggerEvent,
} from './api/events/trigger.js';
export { type Core, createCore } from './core/index.js';
export type { Addresses, Clock, CoreContext, CoreHandler, CoreRequest, CoreResponse } from './core/types.js';
export {
  createServer,
  type ServerControl,
  type ServerOptions,
  type StorefrontServer,
  type TriggeredEvent,
} from './create-server.js';
export type { DemoOptions, ServerCredentials } from './demo-credentials.js';
export { checkDrift, DEFAULT_DRIFT_SAMPLE, type DriftOptions } from './drift/check-drift.js';
export type { Disagreement, DriftCheck, DriftReport, KindSummary } from './drift/report.js';
export { DriftUnreadableError } from './drift/walk.js';
export type { ExplorerHandler } from './explorer/handler.js';
export { createExpressApp } from './express/app.js';
export { createRequestListener, type ExpressAppOptions } from './express/request-listener.js';
export type { ServerTimeouts } from './express/timeouts.js';
export type { ImportDemoOptions } from './import/demo-access.js';
export { type ImportOptions, type ImportReport, importShop } from './import/import-shop.js';
export type { ImportProgress, ShopCounts } from './import/progress.js';
export { ImportError } from './import/walk.js';
export { type RemoteApi, RemoteApiError } from './remote/remote-api.js';
export { connectSandbox, type SandboxClient, type SandboxConnection, type SandboxTime } from './sandbox/client.js';
export type { SandboxDelivery } from './sandbox/deliveries.js';
export type { FaultKind, FaultRule, FaultRuleInput } from './sandbox/faults.js';
export type { JournalEntry, JournalFilter } from './sandbox/journal.js';
export { SandboxError } from './sandbox/sandbox-error.js';
export { type RunningSandbox, type SandboxOptions, startSandbox } from './sandbox/start.js';
export type {
  CreatedTeamApp,
  SandboxTeam,
  TeamApp,
  TeamAppInput,
  TeamItemFilter,
  TeamItemInput,
  TeamKind,
  TeamOrder,
  TeamProduct,
  TeamShop,
  TeamShopInput,
  TeamUser,
  TeamUserInput,
} from './sandbox/team-types.js';
export type { IssuedSandboxToken, IssueTokenOptions } from './sandbox/tokens.js';
export { DEFAULT_PRODUCTS, type DemoCredentials, type SeededData, type SeedOptions, seed } from './seed/index.js';
export { StoreError, StoreFileError } from './store/errors.js';
export { createJsonStore, type JsonStore, type JsonStoreOptions } from './store/json/json-file.js';
export { type LockHolder, StoreLockedError } from './store/json/store-locked-error.js';
export { createMemoryStore } from './store/memory.js';
export {
  createPostgresStore,
  isPostgresUrl,
  type PostgresStore,
  type PostgresStoreOptions,
} from './store/postgres/postgres.js';
export { readDataset } from './store/read-dataset.js';
// The store as createServer's `data`/`store` options and its `store` take it, and the rows of its data (docs/server.md).
export type {
  AppRow,
  AssetFileRow,
  AssetRow,
  AuthCodeRow,
  CollectionName,
  Collections,
  Dataset,
  OrderRow,
  ProductRow,
  ShopRow,
  SnapshotInfo,
  SnapshotShelf,
  Store,
  TemplateRow,
  ThemeRow,
  TokenRow,
  Transaction,
  UserRow,
} from './store/types.js';
