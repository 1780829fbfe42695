/**
 * A replayed authorization code revokes every token it led to (RFC 6749 §4.1.2, RFC 9700): the token the
 * code gave, and each token exchanged from it since through the JWT bearer grant. Also when the redemptions race,
 * where the losers find the code used inside the write queue. On a JSON file and on PostgreSQL (two servers on one
 * schema, the race spread over both).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { tokenRequest } from '../helpers/test-server.js';
import { approveAt } from './fixture.js';

const DEMO = { clientId: 'family-app', clientSecret: 'family-secret-0123456789', password: 'family pw' };
const VERIFIER = 'family-verifier-0123456789-0123456789-0123456789-abcdef';
const CHALLENGE = encodeBase64Url(sha256(new TextEncoder().encode(VERIFIER)));
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const tempDir = useTempDir();
const running: StorefrontServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Origins of the servers of one test: one over a JSON file, or two over one PostgreSQL schema. */
type Setup = () => Promise<string[]>;

const jsonFile: Setup = async () => {
  const server = await createServer({ port: 0, products: 2, data: `${await tempDir()}/data.json`, demo: DEMO });
  running.push(server);
  return [server.origin];
};

const postgres: Setup = async () => {
  const schema = await freshSchema();
  cleanups.push(() => schema.drop());
  // One after the other: the first seeds, the second opens what it wrote.
  for (let i = 0; i < 2; i++) running.push(await createServer({ port: 0, products: 2, store: schema.url, demo: DEMO }));
  return running.map((server) => server.origin);
};

/** A fresh code of the demo user for the demo app, approved at `origin`. */
async function approvedCode(origin: string): Promise<{ code: string; redirectUri: string }> {
  const redirectUri = 'http://127.0.0.1/callback';
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: DEMO.clientId,
    redirect_uri: redirectUri,
    scope: 'admin',
    state: 's',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  });
  const callback = await approveAt(`${origin}/oauth/authorize?${query}`, 'demo', DEMO.password);
  return { code: new URL(callback).searchParams.get('code')!, redirectUri };
}

function redeem(origin: string, { code, redirectUri }: { code: string; redirectUri: string }): Promise<Response> {
  return tokenRequest(
    origin,
    { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: VERIFIER },
    DEMO,
  );
}

async function accessToken(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** `POST /oauth/token` of the JWT bearer grant for `token`. */
async function exchange(origin: string, token: string): Promise<Response> {
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ iss: DEMO.clientId, aud: 'storefront', exp: now + 60, sub: token })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(DEMO.clientSecret));
  return tokenRequest(origin, { grant_type: JWT_BEARER, assertion });
}

/** The token the JWT bearer grant gives for `token` (which it revokes as exchanged). */
async function exchanged(origin: string, token: string): Promise<string> {
  return accessToken(await exchange(origin, token));
}

/** The status of `GET /v1/orders` (admin) with `token`, at every origin. */
async function apiStatuses(origins: readonly string[], token: string): Promise<number[]> {
  return Promise.all(
    origins.map(
      async (origin) => (await fetch(`${origin}/v1/orders`, { headers: { authorization: `Bearer ${token}` } })).status,
    ),
  );
}

const statuses = (responses: readonly Response[]) => responses.map((response) => response.status).sort();

describe.each([
  { store: 'a JSON file', setup: jsonFile, skip: false },
  { store: 'PostgreSQL, two servers', setup: postgres, skip: skipWithout(POSTGRES, 'The PostgreSQL replay tests') },
])('a replayed authorization code on $store', ({ setup, skip }) => {
  it.skipIf(skip)('revokes the token of the winner when 10 redemptions race', async () => {
    const origins = await setup();
    const code = await approvedCode(origins[0]!);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => redeem(origins[i % origins.length]!, code)),
    );
    expect(statuses(responses)).toEqual([200, ...Array(9).fill(400)]);
    const token = await accessToken(responses.find((response) => response.status === 200)!);
    expect(await apiStatuses(origins, token)).toEqual(origins.map(() => 401));
  });

  it.skipIf(skip)('revokes every token exchanged from it since, and says so to a later exchange', async () => {
    const origins = await setup();
    const at = (i: number) => origins[i % origins.length]!;
    const code = await approvedCode(at(0));
    const first = await accessToken(await redeem(at(0), code));
    const second = await exchanged(at(1), first);
    const third = await exchanged(at(0), second);
    expect(await apiStatuses(origins, third)).toEqual(origins.map(() => 200));
    // An unrelated authorization of the same user and app is not touched.
    const other = await accessToken(await redeem(at(0), await approvedCode(at(0))));

    expect((await redeem(at(1), code)).status).toBe(400);
    for (const token of [first, second, third])
      expect(await apiStatuses(origins, token)).toEqual(origins.map(() => 401));
    expect(await apiStatuses(origins, other)).toEqual(origins.map(() => 200));
    const refused = await exchange(at(1), third);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error_description: string }).error_description).toMatch(/was revoked/);
  });
});
