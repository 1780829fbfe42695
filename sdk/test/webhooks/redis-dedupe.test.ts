/**
 * Two receivers (two handlers, each with its own Redis connection, as two app processes would have) sharing one
 * real redis-server through `createRedisDedupeStore`: every delivery, repeated to both at once, is handled
 * exactly once, the repeat answered 409 while the first runs; a failed handler's claim is given up, and a dead
 * process's lapses, so the retry is handled. Run with each Redis client kind.
 */
import { createRedisDedupeStore } from '@storefront-platform/sdk/redis';
import { createWebhookHandler, type StorefrontEvent, signTestWebhook } from '@storefront-platform/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedis, REDIS_CLIENT_KINDS, type TestRedis } from '../../../test/support/redis-clients.js';
import { REDIS_SERVER, type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { newSecret, templateUpdated } from './events.js';

const available = !skipWithout(REDIS_SERVER, 'The Redis dedupe tests');
const secret = newSecret();

let server: RedisServer;
beforeAll(async () => {
  if (available) server = await startRedisServer();
});
afterAll(() => server?.stop());

describe.skipIf(!available).each(REDIS_CLIENT_KINDS.map((kind) => ({ kind })))('with $kind', ({ kind }) => {
  const connections: TestRedis[] = [];
  afterAll(() => Promise.all(connections.map((redis) => redis.close())));

  /** A receiver of its own connection, recording the ids it handled into `handled`. */
  async function receiver(handled: string[], prefix: string, fail?: () => boolean, claimTtl?: number) {
    const redis = await connectRedis(kind, server.url);
    connections.push(redis);
    const on = async (event: StorefrontEvent) => {
      // Long enough for the other receiver's delivery to arrive while this one runs.
      await new Promise((done) => setTimeout(done, 5));
      if (fail?.()) throw new Error('handler failed');
      handled.push(event.id);
    };
    const dedupe = createRedisDedupeStore({ client: redis.client, prefix });
    const handler = createWebhookHandler({ secrets: secret, on: { '*': on }, dedupe, claimTtl, onError: () => {} });
    return { redis, handler };
  }

  async function deliver(handler: (request: Request) => Promise<Response>, id: string) {
    const { body, headers } = await signTestWebhook(templateUpdated(id), secret);
    return (await handler(new Request('http://app.test/webhooks', { method: 'POST', body, headers }))).status;
  }

  it('handles each of 200 deliveries once across two receivers that both get every one', async () => {
    const handled: string[] = [];
    const prefix = `dedupe-${kind}`;
    const [a, b] = [await receiver(handled, prefix), await receiver(handled, prefix)];
    const ids = Array.from({ length: 200 }, (_, i) => `evt_${i}`);
    const statuses = await Promise.all(ids.map((id) => Promise.all([deliver(a.handler, id), deliver(b.handler, id)])));
    // The one that ran answers 204; the other 409 while it ran, 204 once it was done.
    // (Both 204 when one pair's deliveries happen not to overlap; a 409 for sure is the test below.)
    for (const pair of statuses) expect(pair).toContain(204);
    for (const status of statuses.flat()) expect([204, 409]).toContain(status);
    expect(handled.sort()).toEqual([...ids].sort());
    // Done, remembered for two days unless told otherwise.
    expect(await a.redis.send('GET', `${prefix}:webhook:evt_0`)).toBe('done');
    const ttl = Number(await a.redis.send('PTTL', `${prefix}:webhook:evt_0`));
    expect(ttl).toBeGreaterThan(2 * 86_400_000 - 60_000);
  });

  it('gives a claim up when the handler threw, so that the retry, at the other receiver, is handled', async () => {
    const handled: string[] = [];
    const prefix = `retry-${kind}`;
    const failing = await receiver(handled, prefix, () => true);
    const healthy = await receiver(handled, prefix);
    expect(await deliver(failing.handler, 'evt_x')).toBe(500);
    expect(await failing.redis.send('EXISTS', `${prefix}:webhook:evt_x`)).toBe(0);
    expect(await deliver(healthy.handler, 'evt_x')).toBe(204);
    expect(handled).toEqual(['evt_x']);
  });

  it('holds a running delivery for claimTtl only: a repeat meanwhile is 409, and a dead process lets go', async () => {
    const handled: string[] = [];
    const prefix = `dead-${kind}`;
    const healthy = await receiver(handled, prefix, undefined, 300);
    // A process that dies mid-handler: its claim is neither released nor marked done.
    const redis = await connectRedis(kind, server.url);
    connections.push(redis);
    const dedupe = createRedisDedupeStore({ client: redis.client, prefix });
    expect(await dedupe.claim('evt_d', 300, 'dying')).toBe('claimed');
    expect(await redis.send('GET', `${prefix}:webhook:evt_d`)).toBe('running:dying');
    expect(Number(await redis.send('PTTL', `${prefix}:webhook:evt_d`))).toBeLessThanOrEqual(300);
    expect(await deliver(healthy.handler, 'evt_d')).toBe(409);
    await vi.waitFor(async () => expect(await deliver(healthy.handler, 'evt_d')).toBe(204), { timeout: 5000 });
    expect(handled).toEqual(['evt_d']);
  });

  it('releases a claim only for the call that holds it: one that lapsed and another took stays taken', async () => {
    const redis = await connectRedis(kind, server.url);
    connections.push(redis);
    const dedupe = createRedisDedupeStore({ client: redis.client, prefix: `owned-${kind}` });
    expect(await dedupe.claim('evt_o', 50, 'slow')).toBe('claimed');
    await vi.waitFor(async () => expect(await dedupe.claim('evt_o', 60_000, 'retry')).toBe('claimed'));
    // The slow handler fails at last: the retry's claim holds.
    await dedupe.release!('evt_o', 'slow');
    expect(await dedupe.claim('evt_o', 60_000, 'third')).toBe('running');
    await dedupe.release!('evt_o', 'retry');
    expect(await dedupe.claim('evt_o', 60_000, 'fourth')).toBe('claimed');
  });
});

it('rejects when Redis does not answer, so that the handler answers 500', async () => {
  const dead = { sendCommand: vi.fn(() => new Promise<never>(() => {})) };
  const store = createRedisDedupeStore({ client: dead, commandTimeout: 20 });
  await expect(store.claim('evt_1', 1000, 'c')).rejects.toThrow(/did not answer EVAL within 20 ms/);
});
