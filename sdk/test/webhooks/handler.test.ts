/**
 * `createWebhookHandler` on fetch `Request`s: what it answers for each kind of delivery, that a handler's event
 * is typed and verified, that repeats are dropped, answered 409 while the first is still handled, and that a
 * failed handler's delivery, or one whose claim lapsed, is handled again on retry.
 */
import {
  createMemoryDedupeStore,
  createWebhookHandler,
  type DedupeStore,
  type EventOf,
  signTestWebhook,
  type WebhookHandlerOptions,
} from '@storefront-platform/sdk/webhooks';
import { describe, expect, it, vi } from 'vitest';
import { newSecret, templateUpdated } from './events.js';

const secret = newSecret();

async function delivery(event: object | string = templateUpdated(), init: { id?: string; timestamp?: number } = {}) {
  const signed = await signTestWebhook(event as EventOf<'template.updated'>, secret, init);
  return new Request('http://app.test/webhooks', { method: 'POST', body: signed.body, headers: signed.headers });
}

function handlerOf(options: Partial<WebhookHandlerOptions> = {}) {
  const onError = vi.fn();
  const updated = vi.fn(async (_event: EventOf<'template.updated'>) => {});
  const handler = createWebhookHandler({ secrets: secret, on: { 'template.updated': updated }, onError, ...options });
  return { handler, updated, onError };
}

describe('createWebhookHandler', () => {
  it('answers 204 once the handler resolved, with the verified event', async () => {
    let resolve!: () => void;
    const updated = vi.fn((_event: EventOf<'template.updated'>) => new Promise<void>((done) => (resolve = done)));
    const { handler } = handlerOf({ on: { 'template.updated': updated } });
    let answered = false;
    const answer = handler(await delivery()).then((response) => {
      answered = true;
      return response;
    });
    await vi.waitFor(() => expect(updated).toHaveBeenCalledOnce());
    expect(updated.mock.calls[0]![0]).toEqual(templateUpdated());
    await new Promise((done) => setTimeout(done, 20));
    expect(answered).toBe(false);
    resolve();
    expect((await answer).status).toBe(204);
  });

  it('answers 401 to a bad signature or a stale timestamp, 400 to missing headers, 405 to a GET', async () => {
    const { handler, updated, onError } = handlerOf();
    const forged = await delivery();
    const other = await signTestWebhook(templateUpdated(), newSecret());
    const bad = new Request(forged.url, { method: 'POST', body: other.body, headers: other.headers });
    const stale = await delivery(templateUpdated(), { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const bare = new Request(forged.url, { method: 'POST', body: '{}' });
    const answers = await Promise.all([bad, stale, bare].map(handler));
    expect(answers.map((response) => response.status)).toEqual([401, 401, 400]);
    expect(await answers[0]!.text()).toMatch(/No signature of webhook evt_1 matches/);
    expect(onError.mock.calls.map(([error, failure]) => `${error.code} ${failure.status}`).sort()).toEqual([
      'WEBHOOK_HEADERS 400',
      'WEBHOOK_SIGNATURE 401',
      'WEBHOOK_TIMESTAMP 401',
    ]);
    const get = await handler(new Request(forged.url));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect(updated).not.toHaveBeenCalled();
  });

  it('says a secret is empty (an unset environment variable) at each delivery, not at creation (a build has none)', async () => {
    const on = { '*': async () => undefined };
    const delivery = await signTestWebhook(templateUpdated(), secret);
    for (const secrets of ['', [secret, '']]) {
      const handler = createWebhookHandler({ secrets, on });
      await expect(
        handler(new Request('http://app.test/', { method: 'POST', body: delivery.body, headers: delivery.headers })),
      ).rejects.toThrow('A webhook secret is empty: is the environment variable that holds it set?');
    }
  });

  it('answers 400 with the raw-body message to a re-serialised body', async () => {
    const { handler } = handlerOf();
    const signed = await signTestWebhook(templateUpdated(), secret);
    const body = JSON.stringify(JSON.parse(signed.body));
    const response = await handler(new Request('http://app.test/', { method: 'POST', body, headers: signed.headers }));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/re-serialised.*pass the raw body/);
  });

  it('answers 500 when the handler threw, and handles the retry of the same delivery', async () => {
    const { handler, updated, onError } = handlerOf();
    updated.mockRejectedValueOnce(new Error('database down'));
    expect((await handler(await delivery())).status).toBe(500);
    expect(onError).toHaveBeenCalledWith(new Error('database down'), { status: 500, id: 'evt_1' });
    expect((await handler(await delivery())).status).toBe(204);
    expect(updated).toHaveBeenCalledTimes(2);
  });

  it('drops a repeated webhook-id, and handles every delivery with dedupe: false', async () => {
    const { handler, updated } = handlerOf();
    for (let i = 0; i < 3; i++) expect((await handler(await delivery())).status).toBe(204);
    expect(updated).toHaveBeenCalledOnce();
    const all = handlerOf({ dedupe: false });
    for (let i = 0; i < 3; i++) expect((await all.handler(await delivery())).status).toBe(204);
    expect(all.updated).toHaveBeenCalledTimes(3);
  });

  it.each([
    { outcome: 'failed', status: 500, runs: 2 },
    { outcome: 'succeeded', status: 204, runs: 1 },
  ])(
    'answers 409 to a repeat while the first delivery runs; the retry after it $outcome runs it $runs time(s) in all',
    async ({ status, runs }) => {
      let settle!: () => void;
      const updated = vi.fn(async (_event: EventOf<'template.updated'>) => {});
      updated.mockImplementationOnce(
        () =>
          new Promise<void>(
            (resolve, reject) => (settle = () => (status === 500 ? reject(new Error('down')) : resolve())),
          ),
      );
      const { handler } = handlerOf({ on: { 'template.updated': updated } });
      const first = handler(await delivery());
      await vi.waitFor(() => expect(updated).toHaveBeenCalledOnce());
      // The sender's attempt timed out meanwhile: a 2xx here would stand for the first one's outcome, which nobody reads.
      const repeat = await handler(await delivery());
      expect([repeat.status, await repeat.text()]).toEqual([409, 'Webhook evt_1 is being handled: retry later']);
      settle();
      expect((await first).status).toBe(status);
      expect((await handler(await delivery())).status).toBe(204);
      expect(updated).toHaveBeenCalledTimes(runs);
    },
  );

  it('holds a delivery for claimTtl while it runs, so that a dead process lets go; for dedupeTtl once handled', async () => {
    let now = 0;
    const dedupe = createMemoryDedupeStore({ now: () => now });
    const updated = vi.fn(async (_event: EventOf<'template.updated'>) => {});
    // The first attempt's process dies mid-handler: its claim is never released.
    updated.mockReturnValueOnce(new Promise<void>(() => {}));
    const { handler } = handlerOf({ on: { 'template.updated': updated }, dedupe, claimTtl: 1000, dedupeTtl: 100_000 });
    void handler(await delivery());
    await vi.waitFor(() => expect(updated).toHaveBeenCalledOnce());
    expect((await handler(await delivery())).status).toBe(409);
    now = 1001;
    expect((await handler(await delivery())).status).toBe(204);
    expect(updated).toHaveBeenCalledTimes(2);
    now = 100_000;
    expect((await handler(await delivery())).status).toBe(204);
    expect(updated).toHaveBeenCalledTimes(2);
    now = 101_002;
    expect((await handler(await delivery())).status).toBe(204);
    expect(updated).toHaveBeenCalledTimes(3);
  });

  it('answers 204 when the handler resolved but the store failed to record it, and tells onError', async () => {
    const dedupe: DedupeStore = { claim: async () => 'claimed', done: () => Promise.reject(new Error('Redis down')) };
    const { handler, updated, onError } = handlerOf({ dedupe });
    expect((await handler(await delivery())).status).toBe(204);
    expect(updated).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith(new Error('Redis down'), { status: 204, id: 'evt_1' });
  });

  it('answers 500 when the dedupe store fails, without running the handler', async () => {
    const dedupe: DedupeStore = { claim: () => Promise.reject(new Error('Redis down')), done: async () => {} };
    const { handler, updated } = handlerOf({ dedupe });
    expect((await handler(await delivery())).status).toBe(500);
    expect(updated).not.toHaveBeenCalled();
  });

  it('gives * the known types without a handler, and acknowledges unknown types untouched', async () => {
    const any = vi.fn();
    const { handler, updated } = handlerOf({ on: { '*': any } });
    const ping = { ...templateUpdated('evt_2'), type: 'ping', data: { endpoint_id: 'we_1' } };
    const future = { ...templateUpdated('evt_3'), type: 'coupon.created' };
    for (const event of [ping, future]) expect((await handler(await delivery(event))).status).toBe(204);
    expect(any.mock.calls.map(([event]) => event.id)).toEqual(['evt_2']);
    expect(updated).not.toHaveBeenCalled();
  });
});

describe('createMemoryDedupeStore', () => {
  it('holds a claim for its TTL, then done for its own, forgets it on release, and keeps at most maxEntries', async () => {
    let now = 0;
    const store = createMemoryDedupeStore({ maxEntries: 2, now: () => now });
    expect(await store.claim('a', 1000, 'c1')).toBe('claimed');
    expect(await store.claim('a', 1000, 'c2')).toBe('running');
    now = 1001;
    expect(await store.claim('a', 1000, 'c3')).toBe('claimed');
    await store.done('a', 5000);
    now = 5000;
    expect(await store.claim('a', 1000, 'c4')).toBe('done');
    now = 6002;
    expect(await store.claim('a', 1000, 'c5')).toBe('claimed');
    await store.release!('a', 'c5');
    expect(await store.claim('a', 1000, 'c6')).toBe('claimed');
    await store.claim('b', 1000, 'c7');
    await store.claim('c', 1000, 'c8');
    // `a`, the oldest, made room for `c`.
    expect(await store.claim('a', 1000, 'c9')).toBe('claimed');
    expect(await store.claim('c', 1000, 'c10')).toBe('running');
  });

  it('releases a claim only for the call that holds it: one that lapsed and was taken again stays taken', async () => {
    let now = 0;
    const store = createMemoryDedupeStore({ now: () => now });
    expect(await store.claim('a', 1000, 'slow')).toBe('claimed');
    now = 1001;
    expect(await store.claim('a', 1000, 'retry')).toBe('claimed');
    // The slow handler fails at last: the retry's claim holds.
    await store.release!('a', 'slow');
    expect(await store.claim('a', 1000, 'third')).toBe('running');
    await store.done('a', 5000);
    await store.release!('a', 'retry');
    expect(await store.claim('a', 1000, 'fourth')).toBe('done');
  });
});
