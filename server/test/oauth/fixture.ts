/**
 * The seeded authorization service the OAuth suites run against, through either transport (the core
 * directly, or a real server over HTTP), with a clock the tests move by hand.
 */

import type { ClientCredentials } from '@storefront-platform/sdk';
import { basicAuthorization } from '@storefront-platform/sdk/internal';
import { createServer } from '@storefront-platform/server';
import { SignJWT } from 'jose';
import { expect, onTestFinished } from 'vitest';
import { type ManualClock, manualClock } from '../../../test/support/manual-clock.js';
import { addressesOf } from '../../src/core/addresses.js';
import { toFetchHandler } from '../../src/core/fetch-adapter.js';
import type { CoreContext } from '../../src/core/types.js';
import { authenticate, type BearerResult, createOAuth } from '../../src/oauth/index.js';
import { hashPassword } from '../../src/oauth/secrets.js';
import { seed } from '../../src/seed/index.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Dataset } from '../../src/store/types.js';

export const ORIGIN = 'http://localhost:4000';
export const REDIRECT_URI = 'http://localhost:8080/callback';
export const START = Date.UTC(2026, 10, 21, 9, 0, 0);

/** A user who administers no shop, so may not hold `admin`, and the app of that user. */
export const VISITOR = { login: 'visitor', password: 'visitor password: "quoted" & spaced' };
export const OTHER_APP = { clientId: 'other-app', clientSecret: 'other:secret+with/odd chars=' };

const seeded = seed({ products: 6, orders: 2, password: 'demo password', redirectUris: [REDIRECT_URI] });
seeded.dataset.users.push({
  id: 'visitor',
  login: VISITOR.login,
  name: 'Vic Visitor',
  password_hash: hashPassword(VISITOR.password),
  role: 'merchant',
});
seeded.dataset.apps.push({
  id: 'other',
  name: 'Other <b>app</b>',
  client_id: OTHER_APP.clientId,
  client_secret: OTHER_APP.clientSecret,
  redirect_uris: ['https://other.example/cb?keep=1'],
  owner_id: 'visitor',
});

/** A browser page's app (as the explorer is): the one kind of client registered for the implicit grant. */
export const BROWSER_APP = { clientId: 'browser-app', redirectUri: 'http://localhost:8080/page/' };
seeded.dataset.apps.push({
  id: 'browser',
  name: 'Browser page',
  client_id: BROWSER_APP.clientId,
  client_secret: 'never shown',
  redirect_uris: [BROWSER_APP.redirectUri],
  kind: 'browser',
  owner_id: '1',
});

export const DEMO = seeded.credentials;

/** The service under test, reached through one transport. */
export interface Harness {
  /** Store, clock and TTL the service runs with (for checks on stored rows). */
  context: CoreContext;
  clock: ManualClock;
  /** `fetch` for a path of the service (e.g. `/oauth/token`); paths it does not own answer 404. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** `POST /oauth/token` with form parameters and, by default, the demo app's HTTP Basic credentials. */
  token(params: Record<string, string>, basic?: ClientCredentials | false): Promise<Response>;
  /** What the resource API makes of a token. */
  check(token: string): BearerResult;
}

export interface HarnessOptions {
  tokenTtl?: number;
}

/** Builds a fresh service over its own copy of the seeded data. */
export type MakeHarness = (options?: HarnessOptions) => Promise<Harness>;

/** `core`: `createOAuth(context).handle` called directly; `http`: `createServer` on port 0, closed after the test. */
export type Transport = 'core' | 'http';

export function harnessOver(transport: Transport): MakeHarness {
  return async (options = {}) => {
    const clock = manualClock(START);
    const data: Dataset = structuredClone(seeded.dataset);
    const tokenTtl = options.tokenTtl ?? 3600;
    let context: CoreContext;
    let send: (request: Request) => Promise<Response>;
    if (transport === 'core') {
      context = { store: createMemoryStore(data), clock, addresses: addressesOf(ORIGIN), tokenTtl };
      const oauth = createOAuth(context);
      // The id the pipeline would give the request (it names every answer); the service repeats it in error bodies.
      let requests = 0;
      send = toFetchHandler(async (request) => {
        const requestId = `core-${++requests}`;
        const response = (await oauth.handle(request, requestId)) ?? { status: 404, headers: {} };
        return { ...response, headers: { ...response.headers, 'x-request-id': requestId } };
      });
    } else {
      const server = await createServer({ port: 0, data, clock, tokenTtl });
      onTestFinished(() => server.close());
      context = { store: server.store, clock, addresses: addressesOf(server.origin), tokenTtl };
      send = (request) => fetch(request);
    }
    const origin = context.addresses.origin;
    const harness: Harness = {
      context,
      clock,
      fetch: (path, init) => send(new Request(new URL(path, origin), init)),
      token: (params, basic = DEMO) =>
        harness.fetch('/oauth/token', {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(basic ? { authorization: basicAuthorization(basic) } : {}),
          },
          body: new URLSearchParams(params),
        }),
      check: (token) =>
        authenticate(context, {
          method: 'GET',
          url: new URL('/v1', origin),
          headers: new Headers({ authorization: `Bearer ${token}` }),
          body: async () => new Uint8Array(),
        }),
    };
    return harness;
  };
}

/** A JWT bearer assertion signed HS256 with `secret`; `claims` override the defaults (null removes one). */
export async function assertion(
  subject: string,
  claims: Record<string, unknown> = {},
  options: { secret?: string; now?: number; alg?: string } = {},
): Promise<string> {
  const now = Math.floor((options.now ?? START) / 1000);
  const payload: Record<string, unknown> = { iss: DEMO.clientId, aud: 'storefront', exp: now + 60, sub: subject };
  for (const [name, value] of Object.entries(claims)) {
    if (value === null) delete payload[name];
    else payload[name] = value;
  }
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(options.secret ?? DEMO.clientSecret));
}

/** Reads a token endpoint response that must be a success. */
export async function tokenOf(response: Response): Promise<string> {
  const body = (await response.json()) as { access_token?: string };
  expect({ status: response.status, body }).toMatchObject({ status: 200, body: { access_token: expect.any(String) } });
  return body.access_token!;
}

/**
 * Expects an RFC 6749 §5.2 error (uncacheable, JSON) naming its request as its `X-Request-Id` does, and returns its
 * description.
 */
export async function expectOAuthError(response: Response, status: number, error: string): Promise<string> {
  const body = (await response.json()) as { error?: string; error_description?: string; request_id?: string };
  expect({ status: response.status, error: body.error }).toEqual({ status, error });
  expect(typeof body.error_description).toBe('string');
  expect(body.request_id).toEqual(expect.any(String));
  expect(body.request_id).toBe(response.headers.get('x-request-id'));
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  return body.error_description!;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The hidden fields of the consent form, as a browser would submit them. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[decodeEntities(match[1]!)] = decodeEntities(match[2]!);
  }
  return fields;
}

/**
 * Opens the authorize page at `url` (it must show the form), approves it (or, with `decision`, denies it) as `login`
 * as a browser posts it, and returns where the server redirects: the client's callback URL.
 */
export async function approveAt(
  url: string | URL,
  login: string,
  password: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<string> {
  const page = await fetch(url);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`The authorize page answered ${page.status}: ${html}`);
  const approved = await fetch(new URL('/oauth/authorize', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hiddenFields(html), login, password, decision }),
    redirect: 'manual',
  });
  const location = approved.headers.get('location');
  if (approved.status !== 303 || !location) throw new Error(`The form answered ${approved.status} without a redirect`);
  return location;
}
