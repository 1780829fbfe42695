/**
 * The fault rules' tests, run at each door (over real HTTP, and through MSW): the same rules, the same answers.
 */
import { bearer, clientCredentials, createClient, ServerError, TimeoutError } from '@storefront-platform/sdk';
import type { FaultRule, FaultRuleInput, JournalEntry } from '@storefront-platform/server/msw';
import { expect, it } from 'vitest';
import { seededRandom } from '../../src/sandbox/faults.js';

/** A sandbox's faults, reached through one door, and a request to the API it answers. */
export interface FaultDoor {
  add(rule: FaultRuleInput): Promise<FaultRule>;
  list(): Promise<FaultRule[]>;
  clear(): Promise<void>;
  /** A request to `path` of the sandbox's origin. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** What a refused rule is rejected with: its error's class, or its message. */
  refusal: RegExp | (new (...args: never[]) => Error);
  /** An access token of the demo user, issued through the door (`issueToken`). */
  token(scope: 'admin' | 'public'): Promise<string>;
  /** The door's request journal, oldest first. */
  journal(): Promise<JournalEntry[]>;
  /** The sandbox's origin, for an SDK client of it. */
  origin(): string;
}

/** `GET path` with a bearer token. */
const withToken = (door: FaultDoor, path: string, token: string, method = 'GET') =>
  door.fetch(path, { method, headers: { authorization: `Bearer ${token}` } });

/** Statuses of `count` GETs of a path the core answers 404 (so that a hit, 503, is told from a miss). */
async function statuses(door: FaultDoor, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await door.fetch('/v1/nowhere')).status);
  return seen;
}

/** Registers the scenarios in the calling `describe`; `door()` is the door of the current test. */
export function faultScenarios(door: () => FaultDoor): void {
  it('answers a status fault in the API error shape, with Retry-After, `times` times, then lets requests by', async () => {
    const d = door();
    await d.add({ kind: 'status', status: 503, retry_after: 2, method: 'get', path: '/v1/*', times: 2 });
    expect((await d.fetch('/v1/nowhere', { method: 'POST' })).status).not.toBe(503);
    for (let i = 0; i < 2; i++) {
      const response = await d.fetch('/v1/shops/s1/theme.json', { headers: { 'x-request-id': `faulted-${i}` } });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      // Named as the API's own errors are: in X-Request-Id and in the body.
      expect(response.headers.get('x-request-id')).toBe(`faulted-${i}`);
      expect(await response.json()).toEqual({
        _class: ['errors'],
        message: 'Service unavailable',
        request_id: `faulted-${i}`,
      });
    }
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
    expect(await d.list()).toEqual([
      expect.objectContaining({ kind: 'status', method: 'GET', path: '/v1/*', times: 0, hits: 2, status: 503 }),
    ]);
    await d.clear();
    expect(await d.list()).toEqual([]);
  });

  it('matches `:name` segments whole, and a custom message', async () => {
    const d = door();
    await d.add({ kind: 'status', status: 429, message: 'Slow down', path: '/v1/shops/:shop_id/theme.json' });
    expect((await d.fetch('/v1/shops/a/b/theme.json')).status).toBe(404);
    const response = await d.fetch('/v1/shops/a/theme.json');
    expect(response.status).toBe(429);
    expect(((await response.json()) as { message: string }).message).toBe('Slow down');
  });

  it("answers a status fault at the token endpoint with RFC 6749's error, which the SDK throws as a ServerError", async () => {
    const d = door();
    await d.add({ kind: 'status', status: 503, retry_after: 0, path: '/oauth/token', times: 2 });
    const response = await d.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'token-fault' },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('x-request-id')).toBe('token-fault');
    expect(await response.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'Service unavailable',
      request_id: 'token-fault',
    });
    // A failure to try again later, not a refusal: no OAuthError, which an `authorized` strategy takes as final.
    const auth = clientCredentials({ authUrl: d.origin(), clientId: 'any', clientSecret: 'any' });
    const error = await createClient({ baseUrl: `${d.origin()}/v1`, auth })
      .root()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
  });

  it('holds a request for a delay fault, then the core answers it', async () => {
    const d = door();
    await d.add({ kind: 'delay', delay_ms: 300, path: '/v1/nowhere', times: 1 });
    let started = performance.now();
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await d.add({ kind: 'delay', delay_ms: [200, 260], seed: 3, times: 1 });
    started = performance.now();
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('cuts the connection for a reset fault: fetch rejects', async () => {
    const d = door();
    await d.add({ kind: 'reset', path: '/v1/nowhere', times: 1 });
    await expect(d.fetch('/v1/nowhere')).rejects.toThrow(TypeError);
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
  });

  it('cuts an answer short for a truncated fault: the headers, part of the body, then an error', async () => {
    const d = door();
    await d.add({ kind: 'truncated', path: '/v1/nowhere', bytes: 5, times: 1 });
    const response = await d.fetch('/v1/nowhere');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
    await expect(response.text()).rejects.toThrow();
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
  });

  it('refuses a bad rule with a clear error', async () => {
    const d = door();
    for (const bad of [
      { kind: 'explode' },
      { kind: 'status', status: 200 },
      { kind: 'status', status: 503, message: '' },
      { kind: 'status', status: 503, message: '  ' },
      { kind: 'delay' },
      { kind: 'delay', delay_ms: [5, 1] },
      { kind: 'reset', probability: 2 },
      { kind: 'reset', path: 'v1' },
      { kind: 'reset', status: 500 },
      { kind: 'truncated', bytes: -1 },
      { kind: 'status', typo: 1 },
      { kind: 'slow_body' },
      { kind: 'slow_body', bytes_per_second: 0 },
      { kind: 'slow_body', bytes_per_second: 1.5 },
      { kind: 'delay', delay_ms: 1, bytes_per_second: 10 },
      { kind: 'expired_token', status: 401 },
      { kind: 'status', relation: 'no_such_relation' },
      { kind: 'status', relation: 'svc:web' },
      { kind: 'status', relation: 7 },
      { kind: 'status', relation: 'products', path: '/v1/products' },
      { kind: 'status', relation: 'svc:product', method: 'DELETE' },
    ]) {
      await expect(d.add(bad as FaultRuleInput)).rejects.toThrow(d.refusal);
    }
    expect(await d.list()).toEqual([]);
  });

  it('hits the same requests for the same seed and probability: 50 requests, 10 runs', async () => {
    const d = door();
    const run = async (seed: number) => {
      await d.clear();
      await d.add({ kind: 'status', status: 503, probability: 0.3, seed });
      return statuses(d, 50);
    };
    const first = await run(42);
    expect(first).toContain(503);
    expect(first).toContain(404);
    for (let i = 1; i < 10; i++) expect(await run(42)).toEqual(first);
    expect(await run(43)).not.toEqual(first);
  });

  it("hits by a rule's seed alone, whatever an earlier matching rule hit first: 30 requests, 4 runs", async () => {
    const d = door();
    const alone = seededRandom(42);
    const wouldHit = Array.from({ length: 30 }, () => alone() < 0.4);
    for (const earlierSeed of [1, 2, 3, 4]) {
      await d.clear();
      await d.add({ kind: 'status', status: 500, probability: 0.5, seed: earlierSeed });
      await d.add({ kind: 'status', status: 503, probability: 0.4, seed: 42 });
      const seen = await statuses(d, 30);
      const missed = seen.flatMap((status, i) => (status === 500 ? [] : [i]));
      expect(missed.length).toBeGreaterThan(5);
      expect(missed.map((i) => seen[i] === 503)).toEqual(missed.map((i) => wouldHit[i]));
    }
    await d.clear();
  });
}

/** Scenarios of the kinds and matchers added to the first four (issue 49): at each door, the same. */
export function moreFaultScenarios(door: () => FaultDoor): void {
  it('matches the routes a relation links to, with its method (and HEAD), by either spelling', async () => {
    const d = door();
    const rule = await d.add({ kind: 'status', status: 503, relation: 'products' });
    expect(rule).toMatchObject({ relation: 'svc:products', path: null, method: null });
    for (const path of ['/v1/products', '/v1/products.json', '/v1/products.json?shop_ids=1', '/v1/products.jsonp']) {
      expect((await d.fetch(path)).status).toBe(503);
    }
    expect((await d.fetch('/v1/products.json', { method: 'HEAD' })).status).toBe(503);
    expect((await d.fetch('/v1/products.json', { method: 'POST' })).status).not.toBe(503);
    expect((await d.fetch('/v1/shops.json')).status).not.toBe(503);
    await d.clear();
    await d.add({ kind: 'status', status: 502, relation: 'svc:product', method: 'get' });
    expect((await d.fetch('/v1/shops/1/products/2.json')).status).toBe(502);
    expect((await d.fetch('/v1/shops/1/products/2/more.json')).status).not.toBe(502);
    expect((await d.fetch('/v1/shops/1/products/2.json', { method: 'HEAD' })).status).not.toBe(502);
  });

  it('says how to find the relations when one is unknown', async () => {
    const d = door();
    const refused = await d.add({ kind: 'status', relation: 'svc:nope' }).then(
      () => new Error('accepted'),
      (error: Error) => error,
    );
    expect(refused.message).toMatch(/No relation \\?"svc:nope\\?" in the API/);
    expect(refused.message).toContain('/rels/');
    expect(refused.message).toContain('svc:all_products');
  });

  it('sends the headers of a slow body at once and its body at the pace asked, intact', async () => {
    const d = door();
    // One request id for both: the error body repeats it.
    const init = { headers: { 'x-request-id': 'slow-body' } };
    const whole = await (await d.fetch('/v1/nowhere', init)).text();
    await d.add({ kind: 'slow_body', bytes_per_second: 200, path: '/v1/nowhere', times: 1 });
    const started = performance.now();
    const response = await d.fetch('/v1/nowhere', init);
    const headersAfter = performance.now() - started;
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(whole);
    const bodyAfter = performance.now() - started;
    // The body took about its length at 200 bytes a second; its headers came before most of it.
    expect(bodyAfter).toBeGreaterThanOrEqual((whole.length / 200) * 1000 * 0.8);
    expect(headersAfter).toBeLessThan(bodyAfter / 2);
  });

  it("lets a client's timeout end a slow body it is reading", async () => {
    const d = door();
    await d.add({ kind: 'slow_body', bytes_per_second: 10, path: '/v1/nowhere', times: 1 });
    const response = await d.fetch('/v1/nowhere', { signal: AbortSignal.timeout(400) });
    expect(response.status).toBe(404);
    await expect(response.text()).rejects.toMatchObject({ name: 'TimeoutError' });
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
  });

  it("ends the SDK's request at its timeout, which covers a body that trickles", async () => {
    const d = door();
    const client = createClient({
      baseUrl: `${d.origin()}/v1`,
      auth: bearer(await d.token('public')),
      timeout: 400,
      retry: false,
    });
    await d.add({ kind: 'slow_body', bytes_per_second: 20, path: '/v1', times: 1 });
    await expect(client.root()).rejects.toBeInstanceOf(TimeoutError);
    expect((await client.root()).links).toBeDefined();
  });

  it("answers an expired_token fault with the core's 401 for an expired token", async () => {
    const d = door();
    const token = await d.token('admin');
    expect((await withToken(d, '/v1/', token)).status).toBe(200);
    await d.add({ kind: 'expired_token', path: '/v1/', times: 1 });
    const refused = await withToken(d, '/v1/', token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm="storefront", error="invalid_token"/);
    expect(((await refused.json()) as { _class: string[] })._class).toEqual(['errors']);
    // The token expired for good, as one does on its own; another is unaffected once the rule is spent.
    expect((await withToken(d, '/v1/', token)).status).toBe(401);
    expect((await withToken(d, '/v1/', await d.token('admin'))).status).toBe(200);
  });

  it('journals faulted requests with the rule that hit them; a reset has no status', async () => {
    const d = door();
    const reset = await d.add({ kind: 'reset', path: '/v1/nowhere', times: 1 });
    const truncated = await d.add({ kind: 'truncated', path: '/v1/nowhere', times: 1 });
    const slow = await d.add({ kind: 'slow_body', bytes_per_second: 10_000, path: '/v1/nowhere', times: 1 });
    const status = await d.add({ kind: 'status', status: 503, path: '/v1/nowhere', times: 1 });
    const delay = await d.add({ kind: 'delay', delay_ms: 1, path: '/v1/nowhere', times: 1 });
    await expect(d.fetch('/v1/nowhere')).rejects.toThrow(TypeError);
    await expect((await d.fetch('/v1/nowhere')).text()).rejects.toThrow();
    await (await d.fetch('/v1/nowhere')).text();
    await d.fetch('/v1/nowhere');
    await d.fetch('/v1/nowhere');
    await d.fetch('/v1/nowhere');
    const entries = (await d.journal()).filter((e) => e.path === '/v1/nowhere').slice(-6);
    expect(entries.map((e) => [e.status, e.fault])).toEqual([
      [null, reset.id],
      [404, truncated.id],
      [404, slow.id],
      [503, status.id],
      [404, delay.id],
      [404, null],
    ]);
  });
}
