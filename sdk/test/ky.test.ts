import {
  type AuthStrategy,
  type ClientEvents,
  type Credentials,
  clientCredentials,
  NotFoundError,
  OAuthError,
  ServerError,
  TimeoutError,
} from '@storefront-platform/sdk';
import type { HTTPError, Options } from 'ky';
import { describe, expect, it } from 'vitest';
import { fakeFetch, json, type Route } from './helpers/fake-fetch.js';
import {
  createClient,
  type HookState,
  isUserHTTPError,
  kyMajor,
  prefixOptions,
  userHooks,
  userKy,
} from './helpers/user-ky.js';

const base = 'http://api.test/v1/';
const rootDoc = { _class: ['root'], _links: { self: { href: base } } };
const fail = (status: number, headers: Record<string, string> = {}) =>
  json({ _class: ['errors'], message: `status ${status}` }, { status, headers });

/** Answers with each response maker in turn, the last one for good. */
function inTurn(...routes: Route[]): Route {
  let call = 0;
  return (request) => routes[Math.min(call++, routes.length - 1)]!(request);
}

/** A strategy whose tokens are `t1`, `t2`…; refresh hands out the next one, or fails with `refusal`. */
function countingAuth(refusal?: Error) {
  const refreshed: string[] = [];
  let token = 't1';
  const strategy: AuthStrategy = {
    credentials: async () => ({ token, owner: 'user:ada' }),
    refresh: async (failed: Credentials) => {
      refreshed.push(failed.token);
      if (refusal) throw refusal;
      token = `t${Number(failed.token.slice(1)) + 1}`;
      return { token, owner: 'user:ada' };
    },
  };
  return { strategy, refreshed };
}

/** A `beforeRequest` hook that records what each attempt carries when it runs. */
function recordingHook() {
  const seen: { authorization: string | null; retryCount: number }[] = [];
  const hook = ({ request, retryCount }: HookState) => {
    seen.push({ authorization: request.headers.get('authorization'), retryCount });
    request.headers.set('x-trace', `trace-${seen.length}`);
  };
  return { seen, hook };
}

const quick = { limit: 2, delay: () => 1 };

describe('ky hooks given to the client', () => {
  it('run with the headers the client set, on every attempt (ky 1) or every call (ky 2), a refresh included', async () => {
    const auth = countingAuth();
    const { seen, hook } = recordingHook();
    const api = fakeFetch({
      [`GET ${base}`]: inTurn(
        () => fail(401),
        () => fail(503),
        () => json(rootDoc),
      ),
    });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      auth: auth.strategy,
      retry: quick,
      hooks: userHooks({ beforeRequest: [hook] }),
    });
    await client.root();
    // ky 2 runs them once per call: its retries resend the request as the hooks left it. The attempt after a
    // refresh is a call of its own.
    const calls = [
      { authorization: 'Bearer t1', retryCount: 0 },
      { authorization: 'Bearer t2', retryCount: 0 },
    ];
    expect(seen).toEqual(kyMajor >= 2 ? calls : [...calls, { authorization: 'Bearer t2', retryCount: 1 }]);
    expect(api.requests.map((r) => r.headers.get('x-trace'))).toEqual([
      'trace-1',
      'trace-2',
      kyMajor >= 2 ? 'trace-2' : 'trace-3',
    ]);
    expect(api.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2', 'Bearer t2']);
  });

  it('see ky’s errors, while the client rejects with the typed error; events report the hook’s header', async () => {
    const errors: string[] = [];
    const requests: ClientEvents['request'][] = [];
    const api = fakeFetch({ [`GET ${base}`]: () => fail(502) });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      retry: { limit: 1, delay: () => 1 },
      on: { request: (event) => requests.push(event) },
      hooks: userHooks({
        beforeRequest: [({ request }) => request.headers.set('x-trace', 'abc')],
        beforeRetry: [({ error }) => void errors.push(error.name)],
        beforeError: [
          async ({ error }) => {
            // A hook may read the body too: it gets a copy of what the client read, which ky 2 reads into `data`.
            const failed = error as HTTPError & { data?: unknown };
            const body = (kyMajor >= 2 ? failed.data : await failed.response.json()) as { message: string };
            errors.push(`${error.name} ${body.message}`);
            return error;
          },
        ],
      }),
    });
    const error = await client.root().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, body: { message: 'status 502' } });
    // ky 1 runs beforeError on every HTTPError, the retried ones too; ky 2 on the one the request ends with.
    const retried = kyMajor >= 2 ? [] : ['HTTPError status 502'];
    expect(errors).toEqual([...retried, 'HTTPError', 'HTTPError status 502']);
    expect(requests.map((r) => [r.attempt, r.headers['x-trace']])).toEqual([
      [1, 'abc'],
      [2, 'abc'],
    ]);
  });

  it('may read and replace responses: the client reads what afterResponse hooks hand on', async () => {
    const bodies: unknown[] = [];
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      hooks: userHooks({
        afterResponse: [
          async ({ response }) => {
            bodies.push(await response.json());
          },
          ({ response }) => new Response(JSON.stringify({ ...rootDoc, hooked: true }), { headers: response.headers }),
        ],
      }),
    });
    const root = await client.root();
    expect(bodies).toEqual([rootDoc]);
    expect(root.toJSON()).toMatchObject({ hooked: true });
  });

  it('see the responses without a body too: a 304 answered from the cache, a 204', async () => {
    const statuses: number[] = [];
    const empty = (status: number) =>
      new Response(null, { status, headers: { etag: '"r1"', 'content-type': 'application/hal+json' } });
    const removable = {
      ...rootDoc,
      _links: { ...rootDoc._links, 'svc:remove': { href: 'things/1', method: 'delete' } },
    };
    const api = fakeFetch({
      [`GET ${base}`]: (request) =>
        request.headers.get('if-none-match') === '"r1"' ? empty(304) : json(removable, { headers: { etag: '"r1"' } }),
      'DELETE http://api.test/v1/things/1': () => empty(204),
    });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      hooks: userHooks({ afterResponse: [({ response }) => void statuses.push(response.status)] }),
    });
    await client.root();
    const root = await client.root();
    expect(root.response?.revalidated).toBe(true);
    await expect(root.follow('svc:remove' as never)).resolves.toBeUndefined();
    expect(statuses).toEqual([200, 304, 204]);
  });

  it('end the request with the last typed error when a beforeRetry hook stops the retries', async () => {
    const api = fakeFetch({ [`GET ${base}`]: () => fail(503) });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      retry: quick,
      hooks: userHooks({ beforeRetry: [() => userKy.stop] }),
    });
    await expect(client.root()).rejects.toMatchObject({ code: 'SERVER_ERROR', status: 503 });
    expect(api.requests).toHaveLength(1);
  });
});

describe("a user's own ky instance", () => {
  it('is the one requests go through: its headers, hooks and fetch', async () => {
    const { seen, hook } = recordingHook();
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    const instance = userKy.create({
      headers: { 'x-app': 'shop-sync' },
      fetch: api.fetch,
      hooks: userHooks({ beforeRequest: [hook] }),
    });
    const client = createClient({ baseUrl: base, ky: instance });
    await client.root();
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]?.headers.get('x-app')).toBe('shop-sync');
    expect(api.requests[0]?.headers.get('x-trace')).toBe('trace-1');
    // The client's headers are there too, and the client's hooks run after the instance's.
    expect(api.requests[0]?.headers.get('accept')).toBe('application/hal+json, application/json');
    const more: string[] = [];
    const both = createClient({
      baseUrl: base,
      ky: instance,
      hooks: userHooks({ beforeRequest: [() => void more.push('client')] }),
    });
    await both.root();
    expect(seen).toHaveLength(2);
    expect(more).toEqual(['client']);
  });

  it('keeps its retry and timeout unless the client options say otherwise; its prefix and query are ignored', async () => {
    const api = fakeFetch({ [`GET ${base}`]: () => fail(503) });
    const instance = userKy.extend({
      fetch: api.fetch,
      retry: 0,
      ...prefixOptions('http://elsewhere.test'),
      searchParams: { a: 1 },
    });
    await expect(createClient({ baseUrl: base, ky: instance }).root()).rejects.toBeInstanceOf(ServerError);
    expect(api.requests.map((r) => r.url)).toEqual([base]);
    await expect(createClient({ baseUrl: base, ky: instance, retry: quick }).root()).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(api.requests).toHaveLength(4);

    const never: typeof fetch = () => new Promise(() => {});
    const slow = userKy.create({ fetch: never, timeout: 20, retry: 0 });
    await expect(createClient({ baseUrl: base, ky: slow }).root()).rejects.toMatchObject({
      code: 'TIMEOUT',
      timeout: 20,
    });
  });
});

describe('the fetch of a client', () => {
  it('gets the options ky does not know, such as the dispatcher of a proxy', async () => {
    const dispatcher = { name: 'proxy agent' };
    const seen: unknown[] = [];
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push((init as { dispatcher?: unknown } | undefined)?.dispatcher);
      return api.fetch(input, init);
    };
    const client = createClient({ baseUrl: base, fetch, ky: userKy.extend({ dispatcher } as Options) });
    await client.root();
    expect(seen).toEqual([dispatcher]);
  });
});

describe('retries on ky', () => {
  it('with retry: 0, a 401 still refreshes and is sent once more', async () => {
    const auth = countingAuth();
    const api = fakeFetch({
      [`GET ${base}`]: (request) => (request.headers.get('authorization') === 'Bearer t2' ? json(rootDoc) : fail(401)),
    });
    await createClient({ baseUrl: base, fetch: api.fetch, auth: auth.strategy, retry: 0 }).root();
    expect(auth.refreshed).toEqual(['t1']);
    expect(api.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('the attempt after a refresh uses up no retry; the retries count for the whole request', async () => {
    const auth = countingAuth();
    const events: ClientEvents['retry'][] = [];
    const api = fakeFetch({
      [`GET ${base}`]: inTurn(
        () => fail(503),
        () => fail(401),
        () => fail(503),
        () => json(rootDoc),
      ),
    });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      auth: auth.strategy,
      retry: quick,
      on: { retry: (event) => events.push(event) },
    });
    await client.root();
    expect(api.requests).toHaveLength(4);
    expect(events.map((e) => e.attempt)).toEqual([1, 3]);

    const again = fakeFetch({
      [`GET ${base}`]: inTurn(
        () => fail(503),
        () => fail(401),
        () => fail(503),
      ),
    });
    const spent = createClient({
      baseUrl: base,
      fetch: again.fetch,
      auth: countingAuth().strategy,
      retry: { limit: 1, delay: () => 1 },
    });
    await expect(spent.root()).rejects.toMatchObject({ status: 503 });
    expect(again.requests).toHaveLength(3);
  });

  it('never retries an error a hook threw: an OAuthError, whatever shouldRetry says', async () => {
    const refusal = new OAuthError({
      method: 'POST',
      url: 'http://auth.test/oauth/token',
      status: 400,
      body: { error: 'invalid_grant' },
    });
    let calls = 0;
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      retry: { ...quick, shouldRetry: () => true },
      hooks: {
        beforeRequest: [
          () => {
            calls++;
            throw refusal;
          },
        ],
      },
    });
    await expect(client.root()).rejects.toBe(refusal);
    expect(calls).toBe(1);
    expect(api.requests).toHaveLength(0);

    // Nor a refresh refused by the token endpoint.
    const auth = countingAuth(refusal);
    const expired = fakeFetch({ [`GET ${base}`]: () => fail(401) });
    const refused = createClient({ baseUrl: base, fetch: expired.fetch, auth: auth.strategy, retry: quick });
    await expect(refused.root()).rejects.toBe(refusal);
    expect(expired.requests).toHaveLength(1);
    expect(auth.refreshed).toEqual(['t1']);
  });

  it("asks the user's shouldRetry about failed attempts: its true forces a retry, its false prevents one", async () => {
    const seen: string[] = [];
    const api = fakeFetch({
      [`GET ${base}`]: inTurn(
        () => fail(404),
        () => fail(503),
        () => json(rootDoc),
      ),
    });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      retry: {
        ...quick,
        shouldRetry: ({ error }) => {
          seen.push(error.name);
          return isUserHTTPError(error) && error.response.status === 404 ? true : undefined;
        },
      },
    });
    await client.root();
    expect(seen).toEqual(['HTTPError', 'HTTPError']);
    expect(api.requests).toHaveLength(3);

    const refuse = fakeFetch({ [`GET ${base}`]: () => fail(503) });
    const never = createClient({ baseUrl: base, fetch: refuse.fetch, retry: { ...quick, shouldRetry: () => false } });
    await expect(never.root()).rejects.toBeInstanceOf(ServerError);
    expect(refuse.requests).toHaveLength(1);
    await expect(createClient({ baseUrl: base, fetch: fakeFetch({}).fetch }).root()).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('times out a JSON body that stalls, within the attempt, and retries it', async () => {
    let calls = 0;
    const stalled: typeof fetch = async () => {
      calls++;
      return new Response(new ReadableStream({ start: () => {} }), {
        headers: { 'content-type': 'application/hal+json' },
      });
    };
    const client = createClient({ baseUrl: base, fetch: stalled, timeout: 20, retry: quick });
    const error = await client.root().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 20, url: base });
    expect(calls).toBe(3);
  });

  it('rejects with the reason of the signal when aborted during an attempt, without retrying', async () => {
    let calls = 0;
    const hanging: typeof fetch = (input) =>
      new Promise((_resolve, reject) => {
        calls++;
        const { signal } = input as Request;
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const client = createClient({ baseUrl: base, fetch: hanging, retry: quick });
    const controller = new AbortController();
    const pending = client.root({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 5);
    await expect(pending).rejects.toThrow('user left');
    expect(calls).toBe(1);
  });
});

describe('token requests', () => {
  const authUrl = 'http://auth.test';
  const token = () =>
    json({ access_token: 'T1', token_type: 'Bearer', expires_in: 3600 }, { type: 'application/json' });

  it("go through the client's fetch when the strategy has none", async () => {
    const api = fakeFetch({ [`GET ${base}`]: rootDoc, [`POST ${authUrl}/oauth/token`]: token });
    const auth = clientCredentials({ authUrl, clientId: 'app', clientSecret: 's3cret' });
    await createClient({ baseUrl: base, fetch: api.fetch, auth }).root();
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${authUrl}/oauth/token`, `GET ${base}`]);
    expect(api.requests[1]?.headers.get('authorization')).toBe('Bearer T1');
  });

  it("go through the fetch of the client's own ky instance, and through the strategy's fetch when it has one", async () => {
    const api = fakeFetch({ [`GET ${base}`]: rootDoc, [`POST ${authUrl}/oauth/token`]: token });
    const shared = clientCredentials({ authUrl, clientId: 'app', clientSecret: 's3cret' });
    await createClient({ baseUrl: base, ky: userKy.create({ fetch: api.fetch }), auth: shared }).root();
    expect(api.requests.map((r) => r.method)).toEqual(['POST', 'GET']);

    const tokens = fakeFetch({ [`POST ${authUrl}/oauth/token`]: token });
    const own = clientCredentials({ authUrl, clientId: 'app', clientSecret: 's3cret', fetch: tokens.fetch });
    const other = fakeFetch({ [`GET ${base}`]: rootDoc });
    await createClient({ baseUrl: base, fetch: other.fetch, auth: own }).root();
    expect(tokens.requests).toHaveLength(1);
    expect(other.requests.map((r) => r.method)).toEqual(['GET']);
  });
});
