/**
 * Parity of the sandbox's two doors (docs/architecture "Steering the sandbox"): every operation of the MSW mock
 * has its twin in the control API over HTTP, and every control its twin on the mock. What one door has and the
 * other lacks yet is listed below, so that an operation added at one door only fails this test.
 */
import { createHandlers, type FaultKind } from '@storefront-platform/server/msw';
import { expect, test } from 'vitest';
import { CONTROL_OPERATIONS } from '../../src/sandbox/operations.js';

/** The mock's helpers that have no control yet: token and event helpers (issue 49, later). */
const MSW_ONLY = [
  'expireToken',
  'expiredToken',
  'issueToken',
  'trigger',
  'webhooks.deliveries',
  'webhooks.drain',
  'webhooks.receive',
];
/**
 * MSW handlers for `server.use(...)` (dropped by `resetHandlers()`), kept as shorthands: each has its twin in
 * `faults.add` at both doors, the kind named here.
 */
const MSW_SHORTHANDS: Record<string, string> = { serverError: 'status', slowResponse: 'delay', networkError: 'reset' };
/** Controls with no MSW twin yet. */
const HTTP_ONLY: string[] = [];
/** Not operations: the mock's data (read in-process; over HTTP the API itself), and the control API's own index. */
const NOT_OPERATIONS = new Set(['store', 'describe']);

/** The names of the functions of `object`, and of those of its plain objects (`snapshots.take`). */
function operationsOf(object: object, prefix = ''): string[] {
  return Object.entries(object).flatMap(([key, value]) => {
    if (NOT_OPERATIONS.has(key)) return [];
    if (typeof value === 'function') return [`${prefix}${key}`];
    if (value && typeof value === 'object' && !Array.isArray(value)) return operationsOf(value, `${prefix}${key}.`);
    return [];
  });
}

test('each operation of the sandbox is at both doors, or listed as a known gap', () => {
  const msw = new Set(operationsOf(createHandlers({ seed: { products: 1 } })));
  for (const shorthand of Object.keys(MSW_SHORTHANDS)) expect(msw.delete(shorthand)).toBe(true);
  // Each shorthand's twin is a kind the rules have.
  const mock = createHandlers({ seed: { products: 1 } });
  for (const kind of Object.values(MSW_SHORTHANDS) as FaultKind[]) {
    expect(mock.faults.add({ kind, ...(kind === 'delay' ? { delay_ms: 0 } : {}) }).kind).toBe(kind);
  }
  const http = new Set(Object.keys(CONTROL_OPERATIONS).filter((name) => !NOT_OPERATIONS.has(name)));
  expect([...msw].filter((name) => !http.has(name)).sort()).toEqual(MSW_ONLY);
  expect([...http].filter((name) => !msw.has(name)).sort()).toEqual(HTTP_ONLY);
  expect([...http].filter((name) => msw.has(name)).sort()).toEqual([
    'clock.advance',
    'clock.now',
    'clock.set',
    'faults.add',
    'faults.clear',
    'faults.list',
    'journal.clear',
    'journal.entries',
    'rateLimit.get',
    'rateLimit.set',
    'reset',
    'snapshots.delete',
    'snapshots.list',
    'snapshots.restore',
    'snapshots.take',
  ]);
});
