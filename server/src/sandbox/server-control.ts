/**
 * The control API of a server started with `control` (`createServer`): its clock and rate limit setting, which the
 * core is built with, then the door at `/_sandbox` in front of the core. Loaded only when the control API is on, so
 * that a server without it does not load the sandbox's modules at its start.
 */

import { isFirstProcess } from '../cluster/worker.js';
import type { Core } from '../core/index.js';
import type { Addresses, Clock, CoreHandler } from '../core/types.js';
import type { RateLimitPolicy } from '../http/rate-limit.js';
import type { Store } from '../store/types.js';
import type { Deliverer } from '../webhooks/deliverer.js';
import { startBaseline } from './baseline.js';
import { SandboxClock } from './clock.js';
import { storeDeliveries } from './deliveries.js';
import { FaultSet } from './faults.js';
import { withControlDoor } from './http-door.js';
import { RequestJournal, SharedRequestJournal } from './journal.js';
import { memoryShelf } from './memory-shelf.js';
import { RateLimitSetting } from './rate-limit-setting.js';
import { createSandbox } from './sandbox.js';
import { expireSandboxToken } from './tokens.js';

/** What the control API steers in the core: its clock and its rate limit, both kept in the store. */
export interface ControlSettings {
  clock: SandboxClock;
  rateLimit: RateLimitSetting;
}

/** The settings over `store`: the clock runs from `base`; the rate limit is `startLimit` until one is set. */
export function controlSettings(store: Store, base: Clock, startLimit: RateLimitPolicy | undefined): ControlSettings {
  return { clock: new SandboxClock(base, store), rateLimit: new RateLimitSetting(store, startLimit) };
}

/** What {@link withControl} puts the door in front of. */
export interface ControlledCore {
  core: Core;
  webhooks: Deliverer;
  settings: ControlSettings;
  addresses: Addresses;
  token: string;
  /** Keep the sandbox state of a fleet already serving the store (`control.join`), as its later workers do. */
  join: boolean;
}

/** The core's handler behind the control API's door, its faults and its request journal. */
export async function withControl({
  core,
  webhooks,
  settings,
  addresses,
  token,
  join,
}: ControlledCore): Promise<CoreHandler> {
  const { clock, rateLimit } = settings;
  const store = core.context.store;
  // Shared by the processes of a fleet when their store is (PostgreSQL); else this process's own.
  const journal = store.journal ? new SharedRequestJournal(store.journal, () => store.sync?.()) : new RequestJournal();
  const faults = new FaultSet(store);
  // The rules and the clock live in the store, which a restart keeps: a fleet starting anew starts without a
  // test's 503 rule or moved clock. Its later workers (and one restarted), and a server joining it from another
  // host, keep what the fleet's tests set.
  const first = isFirstProcess() && !join;
  if (first) await Promise.all([faults.reset(), clock.reset(), rateLimit.reset()]);
  const sandbox = createSandbox({
    store,
    // The data as the fleet (this process, when alone) started serving it.
    reset: await startBaseline(store, first),
    shelf: store.snapshots ?? memoryShelf(),
    clock,
    journal,
    faults,
    rateLimit,
    onClockMoved: () => webhooks.wake(),
    context: () => core.context,
    webhooks: { deliveries: () => storeDeliveries(store, addresses), drain: () => webhooks.drain() },
  });
  const now = () => clock.now();
  return withControlDoor(
    journal.around(
      faults.around(core.handle, (bearer) => expireSandboxToken(core.context, bearer), now, core.context.stopping),
      now,
    ),
    sandbox,
    addresses.origin,
    token,
  );
}
