import { describe, expect, it } from 'vitest';
import type { CoreRequest } from '../../src/core/types.js';
import { authenticate, bearerChallenge, issueToken } from '../../src/oauth/index.js';
import { harnessOver, ORIGIN } from './fixture.js';

const harness = harnessOver('core');

function request(path: string, headers: Record<string, string> = {}): CoreRequest {
  return {
    method: 'GET',
    url: new URL(path, ORIGIN),
    headers: new Headers(headers),
    body: async () => new Uint8Array(),
  };
}

async function setup() {
  const h = await harness();
  const { token, row } = await issueToken(h.context, { appId: '1', userId: '1', scopes: ['admin'] });
  return { ...h, token, row };
}

describe('authenticate', () => {
  it('resolves an Authorization: Bearer header to the principal', async () => {
    const { context, token, row } = await setup();
    expect(authenticate(context, request('/v1', { authorization: `Bearer ${token}` }))).toEqual({
      ok: true,
      principal: { tokenId: row.id, userId: '1', appId: '1', scopes: ['admin'] },
    });
    // The scheme is case-insensitive (RFC 9110 §11.1).
    expect(authenticate(context, request('/v1', { authorization: `bearer ${token}` })).ok).toBe(true);
  });

  it('issueToken stores the hash and the expiry from the clock and TTL', async () => {
    const { context, token, row, clock } = await setup();
    expect(row).toMatchObject({
      app_id: '1',
      user_id: '1',
      issued_at: clock.now(),
      expires_at: clock.now() + 3_600_000,
    });
    expect(row.token_hash).not.toContain(token);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(context.store.get('tokens', row.id)).toEqual(row);
  });

  it('reports a missing token without error attributes', async () => {
    const { context } = await setup();
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: '' }] as Record<
      string,
      string
    >[]) {
      const result = authenticate(context, request('/v1', headers));
      expect(result).toMatchObject({ ok: false, reason: 'missing', status: 401 });
      if (!result.ok) expect(bearerChallenge(result)).toBe('Bearer realm="storefront"');
    }
  });

  it('reports an unknown or syntactically invalid token as invalid_token', async () => {
    const { context } = await setup();
    for (const authorization of ['Bearer nope', 'Bearer', 'Bearer two words', 'Bearer bad"quote']) {
      const result = authenticate(context, request('/v1', { authorization }));
      expect(result).toMatchObject({ ok: false, reason: 'invalid', status: 401 });
      if (!result.ok) expect(bearerChallenge(result)).toBe('Bearer realm="storefront", error="invalid_token"');
    }
  });

  it('reports an expired token, by the injected clock', async () => {
    const { context, token, clock } = await setup();
    clock.advance(3_600_000);
    const result = authenticate(context, request('/v1', { authorization: `Bearer ${token}` }));
    expect(result).toMatchObject({ ok: false, reason: 'expired', status: 401 });
    if (!result.ok) expect(bearerChallenge(result)).toBe('Bearer realm="storefront", error="invalid_token"');
  });

  it('reports a revoked token', async () => {
    const { context, token, row, clock } = await setup();
    await context.store.write((tx) => tx.update('tokens', row.id, { revoked_at: clock.now() }));
    expect(authenticate(context, request('/v1', { authorization: `Bearer ${token}` }))).toMatchObject({
      ok: false,
      reason: 'revoked',
    });
  });

  it('refuses the token of a user who no longer exists', async () => {
    const { context, token } = await setup();
    await context.store.write((tx) => tx.delete('users', '1'));
    expect(authenticate(context, request('/v1', { authorization: `Bearer ${token}` }))).toMatchObject({
      reason: 'invalid',
    });
  });

  it('reads access_token from the query only when allowed (JSONP)', async () => {
    const { context, token } = await setup();
    const jsonp = request(`/v1/shops.jsonp?callback=cb&access_token=${token}`);
    expect(authenticate(context, jsonp)).toMatchObject({ ok: false, reason: 'missing' });
    expect(authenticate(context, jsonp, { allowQueryToken: true })).toMatchObject({
      ok: true,
      principal: { userId: '1' },
    });
    expect(authenticate(context, request('/v1.jsonp?access_token='), { allowQueryToken: true })).toMatchObject({
      reason: 'missing',
    });
  });

  it('tells a caller without a token where to send one: JSONP callers the access_token parameter', async () => {
    const { context } = await setup();
    const plain = authenticate(context, request('/v1/shops.json'));
    expect(plain).toMatchObject({ reason: 'missing', message: expect.stringContaining('Authorization: Bearer') });
    const jsonp = authenticate(context, request('/v1/shops.jsonp?callback=cb'), { allowQueryToken: true });
    expect(jsonp).toMatchObject({ reason: 'missing', status: 401 });
    expect(jsonp.ok === false && jsonp.message).toMatch(/access_token=/);
    expect(jsonp.ok === false && jsonp.message).not.toContain('Authorization');
  });

  it('refuses a token sent twice as a malformed request (400, invalid_request)', async () => {
    const { context, token } = await setup();
    const both = request(`/v1.jsonp?access_token=${token}`, { authorization: `Bearer ${token}` });
    const twice = request(`/v1.jsonp?access_token=${token}&access_token=${token}`);
    for (const req of [both, twice]) {
      const result = authenticate(context, req, { allowQueryToken: true });
      expect(result).toMatchObject({ ok: false, reason: 'malformed', status: 400 });
      if (!result.ok) expect(bearerChallenge(result)).toBe('Bearer realm="storefront", error="invalid_request"');
    }
  });

  it('describes failures without the token', async () => {
    const { context, token, clock } = await setup();
    clock.advance(7_200_000);
    const result = authenticate(context, request('/v1', { authorization: `Bearer ${token}` }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toBe('The access token has expired');
      expect(result.message).not.toContain(token);
    }
  });
});

describe('bearerChallenge', () => {
  it('names the scope a token lacks', () => {
    expect(bearerChallenge({ reason: 'insufficient_scope', scope: 'admin' })).toBe(
      'Bearer realm="storefront", error="insufficient_scope", scope="admin"',
    );
  });
});

describe('token purge', () => {
  it('deletes tokens 30 days after expiry, at most hourly, on the write path', async () => {
    const { context, clock, row } = await setup();
    const day = 86_400_000;
    clock.advance(30 * day + 3_600_000);
    // Expired exactly 30 days ago: kept until it is older than that.
    await issueToken(context, { appId: '1', userId: '1', scopes: ['public'] });
    expect(context.store.get('tokens', row.id)).toBeDefined();
    clock.advance(1);
    // Within the hour since the last purge: no scan.
    await issueToken(context, { appId: '1', userId: '1', scopes: ['public'] });
    expect(context.store.get('tokens', row.id)).toBeDefined();
    clock.advance(3_600_000);
    await issueToken(context, { appId: '1', userId: '1', scopes: ['public'] });
    expect(context.store.get('tokens', row.id)).toBeUndefined();
    expect(context.store.all('tokens')).toHaveLength(3);
  });
});
