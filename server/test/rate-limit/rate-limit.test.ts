/**
 * The sandbox's rate limit on a real server and on the MSW mock, one scenario for both: the draft's fields on every
 * answer to a caller, the 429 past the quota, the next window on the core's clock, the control API's twin.
 */
import { createHandlers, type StorefrontMock } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { connectSandbox, type SandboxClient } from '../../src/sandbox/client.js';
import { clientToken, grantedToken } from '../helpers/test-server.js';

/** What a scenario needs of a service: where it answers, its demo app, its clock and its limit. */
interface Door {
  origin: string;
  credentials: StorefrontServer['credentials'];
  advance(ms: number): Promise<void>;
  setLimit(limit: string | null): Promise<unknown>;
  getLimit(): Promise<unknown>;
}

function scenarios(door: () => Door) {
  let token: string;
  beforeAll(async () => {
    token = await clientToken(door());
  });
  const get = (path: string, bearer: string | undefined = token) =>
    fetch(`${door().origin}/v1${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  it('announces the policy and what is left on every answer to a caller, errors included', async () => {
    await door().advance(60_000);
    const first = await get('/');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"app-user";q=5;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"app-user";r=4;t=([1-9]|[1-5]\d|60)$/);
    const missing = await get('/shops/no-such-shop.json');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit')).toMatch(/^"app-user";r=3;t=\d+$/);
    expect(missing.headers.get('access-control-expose-headers')).toContain('RateLimit');
    // No caller, no partition: a request without a token counts nowhere and says nothing.
    const anonymous = await get('/', '');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit')).toBeNull();
  });

  it('answers 429 with Retry-After past the quota, in the error body of the API, until the next window', async () => {
    await door().advance(60_000);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 7; i++) {
      const response = await get('/');
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The wait is the window's end, which the RateLimit field names too (the draft: never earlier).
    expect(refused!.headers.get('ratelimit')).toBe(`"app-user";r=0;t=${retryAfter}`);
    const body = (await refused!.json()) as { _class: string[]; message: string };
    expect(body._class).toEqual(['errors']);
    expect(body.message).toMatch(/^Rate limit exceeded: 5 requests per 60 s/);
    await door().advance(retryAfter * 1000);
    expect((await get('/')).status).toBe(200);
  });

  it('counts afresh once the clock is set back before a window it counted (a sandbox clock moved back)', async () => {
    await door().advance(600_000);
    for (let i = 0; i < 6; i++) await get('/');
    expect((await get('/')).status).toBe(429);
    // Back ten minutes: that window is the clock's future, and would otherwise refuse the key until then.
    await door().advance(-600_000);
    const back = await get('/');
    expect(back.status).toBe(200);
    expect(back.headers.get('ratelimit')).toMatch(/^"app-user";r=4;t=\d+$/);
  });

  it('gives a replayed POST the fields and scopes of the request that replays it, not the first', async () => {
    await door().advance(60_000);
    const wider = await grantedToken(door(), { grant_type: 'client_credentials', scope: 'admin public' });
    const post = (bearer: string) =>
      fetch(`${door().origin}/v1/themes/1/templates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': 'k-rl' },
        body: JSON.stringify({ file_name: 'partials/replayed.html', body: '<p>once</p>' }),
      });
    const first = await post(token);
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit')).toMatch(/^"app-user";r=4;/);
    expect(first.headers.get('x-oauth-scopes')).toBe('admin');
    await get('/');
    const replayed = await post(wider);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('ratelimit')).toMatch(/^"app-user";r=2;/);
    expect(replayed.headers.get('x-oauth-scopes')).toBe((await get('/', wider)).headers.get('x-oauth-scopes'));
    expect(replayed.headers.get('x-oauth-scopes')).not.toBe('admin');
    await door().setLimit(null);
    const unlimited = await post(token);
    expect(unlimited.headers.get('idempotent-replayed')).toBe('true');
    expect(unlimited.headers.get('ratelimit')).toBeNull();
    expect(unlimited.headers.get('ratelimit-policy')).toBeNull();
    await door().setLimit('5/60s');
  });

  it('is read and changed through the sandbox, and refuses a limit it cannot read', async () => {
    await door().advance(60_000);
    expect(await door().getLimit()).toEqual({ limit: '5/60s', quota: 5, window_s: 60 });
    expect(await door().setLimit('2/1m')).toEqual({ limit: '2/60s', quota: 2, window_s: 60 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('/')).status);
    expect(statuses).toEqual([200, 200, 429]);
    await expect(door().setLimit('lots')).rejects.toMatchObject({ status: 400 });
    expect(await door().setLimit(null)).toBeNull();
    const free = await get('/');
    expect(free.status).toBe(200);
    expect(free.headers.get('ratelimit-policy')).toBeNull();
    await door().setLimit('5/60s');
  });
}

describe('rate limit on the reference server', () => {
  let server: StorefrontServer;
  let control: SandboxClient;
  beforeAll(async () => {
    server = await createServer({ port: 0, products: 5, explorer: false, control: true, rateLimit: '5/60s' });
    control = connectSandbox(server.control!);
  });
  afterAll(() => server.close());
  scenarios(() => ({
    origin: server.origin,
    credentials: server.credentials,
    advance: async (ms) => void (await control.clock.advance(ms)),
    setLimit: (limit) => control.rateLimit.set(limit),
    getLimit: () => control.rateLimit.get(),
  }));

  it('is off unless asked for, and refuses a malformed option', async () => {
    await expect(createServer({ port: 0, rateLimit: '5 per minute' })).rejects.toThrow(/QUOTA\/WINDOW/);
    const plain = await createServer({ port: 0, products: 1, explorer: false });
    try {
      const token = await clientToken(plain);
      const response = await fetch(`${plain.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.headers.get('ratelimit')).toBeNull();
      expect(response.headers.get('ratelimit-policy')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('rate limit on the MSW mock', () => {
  let mock: StorefrontMock;
  const msw = setupServer();
  beforeAll(() => {
    mock = createHandlers({ seed: { products: 5 }, rateLimit: '5/60s' });
    msw.use(...mock.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(() => msw.close());
  scenarios(() => ({
    origin: mock.origin,
    credentials: mock.credentials,
    advance: async (ms) => mock.clock.advance(ms),
    setLimit: async (limit) => mock.rateLimit.set(limit),
    getLimit: async () => mock.rateLimit.get(),
  }));

  it('refuses a malformed option at once', () => {
    expect(() => createHandlers({ rateLimit: { quota: 0, windowSeconds: 60 } })).toThrow(TypeError);
  });
});
