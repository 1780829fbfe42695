import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Authenticator, createAuthenticator } from '../../src/core/authenticator.js';
import type { CoreContext, CoreRequest } from '../../src/core/types.js';
import { HttpError } from '../../src/http/http-error.js';
import { issueToken } from '../../src/oauth/index.js';
import { seed } from '../../src/seed/index.js';
import { createMemoryStore } from '../../src/store/index.js';

const origin = 'http://localhost:4000';
const { dataset } = seed({ products: 3, orders: 1 });
let now: number;
let context: CoreContext;
let check: Authenticator;
let token: string;

function request(authorization: string | null, search = ''): CoreRequest {
  return {
    method: 'GET',
    url: new URL(`${origin}/v1${search}`),
    headers: { get: (name) => (name === 'authorization' ? authorization : null) },
    body: async () => new Uint8Array(0),
  };
}

const status = (result: ReturnType<Authenticator>) => (result instanceof HttpError ? result.status : 'ok');

beforeEach(async () => {
  now = Date.UTC(2026, 5, 1);
  context = {
    store: createMemoryStore(structuredClone(dataset)),
    clock: { now: () => now },
    addresses: { origin, baseUrl: `${origin}/v1`, authUrl: origin, staticUrl: `${origin}/static` },
    tokenTtl: 60,
  };
  check = createAuthenticator(context);
  token = (await issueToken(context, { appId: '1', userId: '1', scopes: ['admin'] })).token;
});

describe('createAuthenticator', () => {
  it('resolves the principal of a valid token, again and again', () => {
    const first = check(request(`Bearer ${token}`), false);
    expect(first).toMatchObject({ userId: '1', appId: '1', scopes: ['admin'] });
    expect(check(request(`Bearer ${token}`), false)).toBe(first);
  });

  it('refuses a remembered token once it expires', () => {
    expect(status(check(request(`Bearer ${token}`), false))).toBe('ok');
    now += 60_000;
    const expired = check(request(`Bearer ${token}`), false);
    expect(expired).toBeInstanceOf(HttpError);
    expect((expired as HttpError).status).toBe(401);
    expect((expired as HttpError).headers).toEqual({
      'www-authenticate': 'Bearer realm="storefront", error="invalid_token"',
    });
  });

  it('refuses a remembered token once it is revoked or its user is gone', async () => {
    const principal = check(request(`Bearer ${token}`), false);
    if (principal instanceof HttpError) throw principal;
    await context.store.write((tx) => tx.update('tokens', principal.tokenId, { revoked_at: now }));
    expect(status(check(request(`Bearer ${token}`), false))).toBe(401);

    const other = (await issueToken(context, { appId: '1', userId: '1', scopes: ['public'] })).token;
    expect(status(check(request(`Bearer ${other}`), false))).toBe('ok');
    await context.store.write((tx) => tx.delete('users', '1'));
    expect(status(check(request(`Bearer ${other}`), false))).toBe(401);
  });

  it('keeps a remembered token while other tokens come and go, without checking it again', async () => {
    const first = check(request(`Bearer ${token}`), false);
    await issueToken(context, { appId: '1', userId: '1', scopes: ['public'] });
    const lookups = vi.spyOn(context.store, 'where');
    expect(check(request(`Bearer ${token}`), false)).toBe(first);
    expect(lookups).not.toHaveBeenCalled();
  });

  it('answers 401 without a token and for an unknown one', () => {
    expect(status(check(request(null), false))).toBe(401);
    expect(status(check(request('Bearer nope'), false))).toBe(401);
  });

  it('takes the access_token query parameter only when allowed', () => {
    expect(status(check(request(null, `?access_token=${token}`), true))).toBe('ok');
    expect(status(check(request(null, `?access_token=${token}`), false))).toBe(401);
  });
});
