/**
 * `@storefront-platform/server/msw`: MSW handlers over the reference server's core and an in-memory store, for app test
 * suites in Node (`setupServer`) and browsers (`setupWorker`). Imports no `node:` module, Express or lowdb.
 */

export { TriggerError, type TriggerOptions, type TriggerType } from '../api/events/trigger.js';
export type { Clock } from '../core/types.js';
export type { TriggeredEvent } from '../create-server.js';
export type { ServerCredentials } from '../demo-credentials.js';
export type { FaultKind, FaultRule, FaultRuleInput, SandboxFaults } from '../sandbox/faults.js';
export type { JournalEntry, JournalFilter } from '../sandbox/journal.js';
export type { SandboxClockControls, SandboxJournal, SandboxSnapshots } from '../sandbox/sandbox.js';
export { SandboxError } from '../sandbox/sandbox-error.js';
export type * from '../sandbox/team-types.js';
export { type DemoCredentials, type SeedOptions, seed } from '../seed/index.js';
// What `seed` gives and `createHandlers({ seed })` takes.
export type { CollectionName, Dataset, SnapshotInfo } from '../store/types.js';
export {
  createHandlers,
  type HandlersOptions,
  type IssueTokenOptions,
  type MockToken,
  type StorefrontMock,
} from './create-handlers.js';
export type { FailureOptions, ServerErrorOptions } from './failures.js';
export { MOCK_DEMO_SECRETS } from './initial-data.js';
export type {
  DeliveredEvent,
  MockWebhookDelivery,
  MockWebhookOptions,
  MockWebhooks,
  WebhookReceiver,
} from './webhooks.js';
