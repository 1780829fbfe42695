/**
 * An attempt whose outcome the store cannot record (PostgreSQL down, a full disk) neither brings the process down
 * nor holds a place in flight: it stays pending and is made again once the store writes again, and the failure is
 * logged once, not once per try.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCore } from '../../src/core/index.js';
import type { CoreContext } from '../../src/core/types.js';
import { issueToken } from '../../src/oauth/index.js';
import { seed } from '../../src/seed/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';

const origin = 'http://shop.test';

/** A memory store whose writes reject while `down` is set, as a store whose database went away. */
function flakyStore() {
  const store = createMemoryStore(seed({ products: 3, orders: 1 }).dataset);
  /** `down`: every write refused; `once`: the next write refused, then the store is back. */
  const state = { down: false, once: false, refused: 0 };
  const flaky = new Proxy(store, {
    get(target, property) {
      if (property === 'write') {
        return (fn: Parameters<Store['write']>[0]) => {
          if (!state.down && !state.once) return target.write(fn);
          state.once = false;
          state.refused++;
          return Promise.reject(new Error('the database is unavailable'));
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: flaky, state };
}

/** The core's context over `store`, on the wall clock. */
function contextOf(store: Store): CoreContext {
  return {
    store,
    clock: { now: () => Date.now() },
    addresses: { origin, baseUrl: `${origin}/v1`, authUrl: origin, staticUrl: `${origin}/static` },
    tokenTtl: 3600,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an attempt whose outcome cannot be recorded', () => {
  it('is made again once the store is back, with one line logged, and leaves no place taken in flight', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store, state } = flakyStore();
    const sent: string[] = [];
    // One attempt in flight at most: a place lost to the failure would stop every delivery after it.
    const core = createCore(contextOf(store), {
      webhooks: {
        concurrency: 1,
        pollMs: 10,
        send: async (webhook) => {
          sent.push(webhook.headers['webhook-id']!);
          // The store goes down while the first attempt is out: its outcome cannot be written.
          if (sent.length === 1) state.down = true;
          return { status: 204, retryAfter: null };
        },
      },
    });
    try {
      const { token } = await issueToken(core.context, { appId: '1', userId: '1', scopes: ['admin'] });
      const call = async (path: string, body?: unknown) => {
        const response = await core.fetch(
          new Request(`${origin}/v1${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body ?? {}),
          }),
        );
        expect(response.status).toBe(201);
        return (await response.json()) as { id: string };
      };
      const endpoint = await call('/webhook_endpoints', { url: 'http://app.test/webhooks' });
      const ping = await call(`/webhook_endpoints/${endpoint.id}/ping`);
      await vi.waitFor(() => expect(state.refused).toBeGreaterThanOrEqual(3), { timeout: 5000, interval: 5 });
      await core.webhooks!.drain();
      expect(store.get('webhook_deliveries', ping.id)?.status).toBe('pending');

      state.down = false;
      await vi.waitFor(() => expect(store.get('webhook_deliveries', ping.id)?.status).toBe('succeeded'), {
        timeout: 5000,
        interval: 5,
      });
      // The place it held is free: a later event is delivered too.
      await call(`/webhook_endpoints/${endpoint.id}/ping`);
      await core.webhooks!.drain();
      const [first] = sent;
      // Made while the store was down (each outcome lost), then once more with it back.
      expect(sent.filter((id) => id === first).length).toBeGreaterThanOrEqual(3);
      expect(sent.filter((id) => id !== first)).toHaveLength(1);
      expect(logged.mock.calls.map(([line]) => String(line))).toEqual([
        'storefront-server: webhook attempts are not recorded, retrying: the database is unavailable',
      ]);
    } finally {
      state.down = false;
      await core.webhooks!.close();
    }
  });

  it('is not taken for a failed send when the receiver accepted it: no failed attempt, and it succeeds once recorded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store, state } = flakyStore();
    let sends = 0;
    const core = createCore(contextOf(store), {
      webhooks: {
        pollMs: 10,
        send: async () => {
          // The record of the first answer is the write the store refuses, once.
          if (++sends === 1) state.once = true;
          return { status: 204, retryAfter: null };
        },
      },
    });
    try {
      const { token } = await issueToken(core.context, { appId: '1', userId: '1', scopes: ['admin'] });
      const post = async (path: string, body?: unknown) =>
        (await (
          await core.fetch(
            new Request(`${origin}/v1${path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify(body ?? {}),
            }),
          )
        ).json()) as { id: string };
      const endpoint = await post('/webhook_endpoints', { url: 'http://app.test/webhooks' });
      const ping = await post(`/webhook_endpoints/${endpoint.id}/ping`);
      await vi.waitFor(() => expect(store.get('webhook_deliveries', ping.id)?.status).toBe('succeeded'), {
        timeout: 5000,
        interval: 5,
      });
      await core.webhooks!.drain();
      expect(state.refused).toBe(1);
      // Sent again (its outcome was lost), recorded once: no attempt failed, none more staged.
      expect(sends).toBe(2);
      expect(store.where('webhook_deliveries', 'endpoint_id', endpoint.id).map((row) => row.status)).toEqual([
        'succeeded',
      ]);
    } finally {
      await core.webhooks!.close();
    }
  });
});
