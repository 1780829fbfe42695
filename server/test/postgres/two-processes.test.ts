/**
 * What the API promises holds across processes sharing one PostgreSQL database, enforced by the database: two
 * real `storefront-server --store postgres://…` processes on a schema of their own, requests spread over both.
 * Connected directly, and through a real PgBouncer in each of its pooling modes (the pooler in front of most hosted
 * PostgreSQL): the promises are the same.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGBOUNCER, type Pgbouncer, ROUTES, startPgbouncer } from '../../../test/support/pgbouncer-server.js';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { tokenRequest } from '../helpers/test-server.js';
import { hiddenFields } from '../oauth/fixture.js';
import { type Server, startServers, stopServers } from './write-load.js';

const DEMO = { clientId: 'fleet-app', clientSecret: 'fleet-secret-0123456789', login: 'demo', password: 'fleet pw' };
const REDIRECT_URI = 'http://localhost:8080/callback';
const VERIFIER = 'fleet-verifier-0123456789-0123456789-0123456789-abcdef';
const CHALLENGE = encodeBase64Url(sha256(new TextEncoder().encode(VERIFIER)));
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const skip = skipWithout(POSTGRES, 'The two-process PostgreSQL tests');
const skipPooled = skip || skipWithout(PGBOUNCER, 'The two-process PostgreSQL tests through PgBouncer');

describe.each(ROUTES)('two processes on one PostgreSQL database, $route', ({ mode }) => {
  if (mode ? skipPooled : skip) {
    it.skip('needs PostgreSQL (and PgBouncer)');
    return;
  }
  let schema: FreshSchema;
  let bouncer: Pgbouncer | undefined;
  let servers: Server[] = [];
  /** The two servers' origins: A seeded the data, B opened it. */
  let origins: [string, string];
  let token: string;

  beforeAll(async () => {
    schema = await freshSchema();
    bouncer = mode && (await startPgbouncer(mode));
    servers = await startServers(bouncer ? bouncer.through(schema.url) : schema.url, 2, { products: 10, demo: DEMO });
    origins = [servers[0]!.origin, servers[1]!.origin];
    token = await clientToken(origins[0]);
  }, 60_000);

  afterAll(async () => {
    await stopServers(servers);
    await bouncer?.close();
    await schema?.drop();
  });

  /** The origin of request `i`: alternately A and B. */
  const at = (i: number) => origins[i % 2]!;

  async function clientToken(origin: string): Promise<string> {
    const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  function api(origin: string, path: string, init: RequestInit = {}, bearer = token): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${bearer}`);
    if (init.body) headers.set('content-type', 'application/json');
    return fetch(`${origin}/v1${path}`, { ...init, headers });
  }

  const statuses = (responses: readonly Response[]) => {
    const counts: Record<number, number> = {};
    for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };

  it('exchanges a token once: of 50 concurrent JWT bearer exchanges spread over both, exactly one succeeds', async () => {
    const old = await clientToken(origins[0]);
    const now = Math.floor(Date.now() / 1000);
    const assertions = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        new SignJWT({ iss: DEMO.clientId, aud: 'storefront', exp: now + 60, sub: old, jti: `j${i}` })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .sign(new TextEncoder().encode(DEMO.clientSecret)),
      ),
    );
    const responses = await Promise.all(
      assertions.map((assertion, i) => tokenRequest(at(i), { grant_type: JWT_BEARER, assertion })),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 400: 49 });
  });

  it('redeems an authorization code once: of 20 concurrent exchanges spread over both, exactly one succeeds', async () => {
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: DEMO.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'admin',
      state: 's',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    });
    const page = await fetch(`${origins[0]}/oauth/authorize?${params}`);
    expect(page.status).toBe(200);
    const consent = await fetch(`${origins[1]}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...hiddenFields(await page.text()),
        login: DEMO.login,
        password: DEMO.password,
        decision: 'approve',
      }),
      redirect: 'manual',
    });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code');
    expect(code).toBeTruthy();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        tokenRequest(
          at(i),
          { grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER },
          DEMO,
        ),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 400: 19 });
  });

  it('refuses a stale If-Match wherever it lands: of 20 concurrent updates on one ETag, exactly one succeeds', async () => {
    const created = await api(origins[0], '/themes/1/templates', {
      method: 'POST',
      body: JSON.stringify({ file_name: 'fleet-guard.html', body: '<p>0</p>' }),
    });
    expect(created.status).toBe(201);
    const etag = created.headers.get('etag')!;
    const { id, updated_on: first } = (await created.json()) as { id: string; updated_on: string };
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(at(i), `/themes/1/templates/${id}`, {
          method: 'PUT',
          headers: { 'if-match': etag },
          body: JSON.stringify({ body: `<p>${i + 1}</p>` }),
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 412: 19 });
    const winner = responses.findIndex((response) => response.status === 200);
    // Both see the winner's body, and a stale `last_updated_on` is refused on either.
    for (const origin of origins) {
      const read = await api(origin, `/themes/1/templates/${id}`);
      expect(((await read.json()) as { body: string }).body).toBe(`<p>${winner + 1}</p>`);
    }
    const stale = await api(origins[1], `/themes/1/templates/${id}`, {
      method: 'PUT',
      body: JSON.stringify({ body: '<p>stale</p>', last_updated_on: first }),
    });
    expect(stale.status).toBe(422);
  });

  it('never gives two rows one id: 40 templates created concurrently over both all get ids of their own', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api(at(i), '/themes/1/templates', {
          method: 'POST',
          body: JSON.stringify({ file_name: `fleet-ids-${i}.html`, body: `<p>${i}</p>` }),
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 40 });
    const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(40);
    for (const origin of origins) {
      for (const [i, id] of ids.entries()) {
        const read = await api(origin, `/themes/1/templates/${id}`);
        expect(((await read.json()) as { file_name: string }).file_name).toBe(`fleet-ids-${i}.html`);
      }
    }
  });

  it('shows every write acknowledged by one process to the next request on the other: 100 rounds, deletes included, 0 stale', async () => {
    let stale = 0;
    for (let round = 0; round < 100; round++) {
      const writer = at(round);
      const reader = at(round + 1);
      const created = await api(writer, '/themes/1/templates', {
        method: 'POST',
        body: JSON.stringify({ file_name: `ryw-${round}.html`, body: '<p>new</p>' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const read = await api(reader, `/themes/1/templates/${id}`);
      if (read.status !== 200 || ((await read.json()) as { body: string }).body !== '<p>new</p>') stale++;
      // Updated on the reader, read on the writer.
      const update = await api(reader, `/themes/1/templates/${id}`, {
        method: 'PUT',
        body: JSON.stringify({ body: `<p>${round}</p>` }),
      });
      expect(update.status).toBe(200);
      const reread = await api(writer, `/themes/1/templates/${id}`);
      if (((await reread.json()) as { body: string }).body !== `<p>${round}</p>`) stale++;
      expect((await api(writer, `/themes/1/templates/${id}`, { method: 'DELETE' })).status).toBe(204);
      if ((await api(reader, `/themes/1/templates/${id}`)).status !== 404) stale++;
    }
    expect(stale).toBe(0);
    // A token issued by one is accepted by the other at once.
    const fresh = await clientToken(origins[1]);
    expect((await api(origins[0], '/', {}, fresh)).status).toBe(200);
  }, 120_000);

  // Last: it leaves the demo login throttled for a moment.
  it('counts failed logins of both processes: 5 wrong passwords over both, and the right one is throttled', async () => {
    const password = (origin: string, guess: string) =>
      tokenRequest(origin, { grant_type: 'password', username: DEMO.login, password: guess }, DEMO);
    for (let i = 0; i < 5; i++) expect((await password(at(i), `wrong ${i}`)).status).toBe(400);
    // Five failures are free per login, then each waits: neither process alone has seen five.
    for (const origin of origins) {
      const refused = await password(origin, DEMO.password);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toBe('slow_down');
    }
  });
});
