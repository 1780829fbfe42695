/**
 * The control API's operations and how each is called over HTTP: one list, read by the HTTP door's tests, the
 * parity test of the two doors and the client (`client.ts`).
 */

import { TEAM_OPERATIONS } from './team-operations.js';

/** The path of the control API's resource. */
export const CONTROL_PATH = '/_sandbox';

/** Every operation of the control API and how it is called: the HTTP door's list, which the parity test reads. */
export const CONTROL_OPERATIONS = {
  describe: { method: 'GET', path: '' },
  reset: { method: 'POST', path: '/reset' },
  'snapshots.list': { method: 'GET', path: '/snapshots' },
  'snapshots.take': { method: 'PUT', path: '/snapshots/:name' },
  'snapshots.restore': { method: 'POST', path: '/snapshots/:name/restore' },
  'snapshots.delete': { method: 'DELETE', path: '/snapshots/:name' },
  'clock.now': { method: 'GET', path: '/clock' },
  'clock.set': { method: 'PUT', path: '/clock' },
  'clock.advance': { method: 'POST', path: '/clock/advance' },
  'journal.entries': { method: 'GET', path: '/journal' },
  'journal.clear': { method: 'DELETE', path: '/journal' },
  'faults.list': { method: 'GET', path: '/faults' },
  'faults.add': { method: 'POST', path: '/faults' },
  'faults.clear': { method: 'DELETE', path: '/faults' },
  ...TEAM_OPERATIONS,
  // The MSW mock's token, event and webhook helpers, by the same names.
  issueToken: { method: 'POST', path: '/tokens' },
  expireToken: { method: 'POST', path: '/tokens/expire' },
  trigger: { method: 'POST', path: '/events' },
  'webhooks.deliveries': { method: 'GET', path: '/webhooks/deliveries' },
  'webhooks.drain': { method: 'POST', path: '/webhooks/drain' },
  'rateLimit.get': { method: 'GET', path: '/rate-limit' },
  'rateLimit.set': { method: 'PUT', path: '/rate-limit' },
} as const satisfies Record<string, { method: string; path: string }>;

/** The name of an operation of the control API. */
export type ControlOperation = keyof typeof CONTROL_OPERATIONS;
