/**
 * Parity of the sandbox's two doors (docs/architecture "Steering the sandbox"): every operation of the MSW mock
 * has its twin in the control API over HTTP, and every control its twin on the mock. What one door has and the
 * other lacks yet is listed below, so that an operation added at one door only fails this test.
 */
import { createHandlers, type FaultKind } from '@storefront-platform/server/msw';
import { expect, test } from 'vitest';
import { connectSandbox } from '../../src/index.js';
import { CONTROL_OPERATIONS } from '../../src/sandbox/operations.js';

/**
 * The mock's helpers that have no control, and why. `webhooks.receive` hands the mock's deliveries to a function of
 * the test's own process, which no other process can be: the server's twin is a real URL, registered as a webhook
 * endpoint through the API (`svc:create_webhook_endpoint`), where it delivers over HTTP.
 */
const MSW_ONLY = ['webhooks.receive'];
/**
 * MSW handlers for `server.use(...)` (dropped by `resetHandlers()`), kept as shorthands: each has its twin in
 * `faults.add` at both doors, the kind named here.
 */
const MSW_SHORTHANDS: Record<string, string> = {
  serverError: 'status',
  slowResponse: 'delay',
  networkError: 'reset',
  expiredToken: 'expired_token',
};
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
    'apps.add',
    'apps.list',
    'apps.remove',
    'clock.advance',
    'clock.now',
    'clock.set',
    'expireToken',
    'faults.add',
    'faults.clear',
    'faults.list',
    'issueToken',
    'journal.clear',
    'journal.entries',
    'orders.add',
    'orders.list',
    'orders.remove',
    'products.add',
    'products.list',
    'products.remove',
    'rateLimit.get',
    'rateLimit.set',
    'reset',
    'shops.add',
    'shops.list',
    'shops.remove',
    'snapshots.delete',
    'snapshots.list',
    'snapshots.restore',
    'snapshots.take',
    'trigger',
    'users.add',
    'users.list',
    'users.remove',
    'webhooks.deliveries',
    'webhooks.drain',
  ]);
});

test('the typed client has each control, by the same name', () => {
  const client = connectSandbox({ url: 'http://127.0.0.1:9/_sandbox', token: 'unused-token-0123456789' });
  const http = Object.keys(CONTROL_OPERATIONS).filter((name) => !NOT_OPERATIONS.has(name));
  expect(operationsOf(client).sort()).toEqual(http.sort());
});
