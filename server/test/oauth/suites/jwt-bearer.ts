import sign from 'jwt-encode';
import { describe, expect, it } from 'vitest';
import { assertion, DEMO, expectOAuthError, type MakeHarness, OTHER_APP, START, tokenOf } from '../fixture.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const HOUR = 3_600_000;

/** A harness with an expired admin + public token of the demo app, and the clock two hours on. */
async function expiredToken(harness: MakeHarness) {
  const h = await harness();
  // Client credentials rather than the password grant: same user (the app's owner), without scrypt's cost.
  const token = await tokenOf(await h.token({ grant_type: 'client_credentials', scope: 'admin public' }));
  h.clock.advance(2 * HOUR);
  expect(h.check(token)).toMatchObject({ ok: false, reason: 'expired' });
  const now = START + 2 * HOUR;
  const exchange = (jwt: string, extra: Record<string, string> = {}) =>
    h.token({ grant_type: JWT_BEARER, assertion: jwt, ...extra }, false);
  return { h, token, now, exchange };
}

export function jwtBearerSuite(harness: MakeHarness): void {
  describe('JWT bearer grant', () => {
    it('exchanges an expired token for a new one with the same user and scopes', async () => {
      const { h, token, now, exchange } = await expiredToken(harness);
      const response = await exchange(await assertion(token, {}, { now }));
      const body = await response.clone().json();
      expect(body).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        scopes: 'admin,public',
        scope: 'admin public',
      });
      const fresh = await tokenOf(response);
      expect(fresh).not.toBe(token);
      expect(h.check(fresh)).toMatchObject({
        ok: true,
        principal: { userId: '1', appId: '1', scopes: ['admin', 'public'] },
      });
    });

    it('exchanges a token that has not expired yet', async () => {
      const h = await harness();
      const token = await tokenOf(await h.token({ grant_type: 'client_credentials' }));
      const response = await h.token({ grant_type: JWT_BEARER, assertion: await assertion(token) }, false);
      expect(response.status).toBe(200);
    });

    it('revokes the exchanged token, so that each token is exchanged once', async () => {
      const { h, token, now, exchange } = await expiredToken(harness);
      const fresh = await tokenOf(await exchange(await assertion(token, {}, { now })));
      expect(h.check(token)).toMatchObject({ ok: false, reason: 'revoked' });
      const again = await exchange(await assertion(token, {}, { now }));
      expect(await expectOAuthError(again, 400, 'invalid_grant')).toContain('already exchanged');
      // The new token is itself exchangeable, once.
      expect((await exchange(await assertion(fresh, {}, { now }))).status).toBe(200);
      expect(h.check(fresh)).toMatchObject({ ok: false, reason: 'revoked' });
    });

    it('lets only one of two concurrent exchanges of a token succeed', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      const responses = await Promise.all([
        exchange(await assertion(token, {}, { now })),
        exchange(await assertion(token, { aud: 'other' }, { now })),
      ]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    });

    it('accepts the legacy grant_type=assertion form', async () => {
      const { h, token, now } = await expiredToken(harness);
      const response = await h.token(
        { grant_type: 'assertion', assertion_type: JWT_BEARER, assertion: await assertion(token, {}, { now }) },
        false,
      );
      expect(response.status).toBe(200);
    });

    it('refuses the legacy form with another or no assertion_type', async () => {
      const { h, token, now } = await expiredToken(harness);
      const jwt = await assertion(token, {}, { now });
      await expectOAuthError(
        await h.token({ grant_type: 'assertion', assertion_type: 'urn:example:saml', assertion: jwt }, false),
        400,
        'unsupported_grant_type',
      );
      const missing = await h.token({ grant_type: 'assertion', assertion: jwt }, false);
      expect(await expectOAuthError(missing, 400, 'invalid_request')).toContain('assertion_type');
    });

    it('accepts assertions built with jwt-encode, as the SDK builds them (iat included)', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      const seconds = Math.floor(now / 1000);
      const jwt = sign(
        { iss: DEMO.clientId, aud: 'https://any', sub: token, iat: seconds, exp: seconds + 30 },
        DEMO.clientSecret,
      );
      expect((await exchange(jwt)).status).toBe(200);
    });

    it('names the token with prn as well as sub, and insists they agree', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      const mismatch = await exchange(await assertion(token, { prn: 'another' }, { now }));
      expect(await expectOAuthError(mismatch, 400, 'invalid_grant')).toContain('differ');
      const prnOnly = await exchange(await assertion(token, { sub: null, prn: token }, { now }));
      expect(prnOnly.status).toBe(200);
    });

    it('answers 400 invalid_grant saying exp is required when exp is missing', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      const description = await expectOAuthError(
        await exchange(await assertion(token, { exp: null }, { now })),
        400,
        'invalid_grant',
      );
      expect(description).toMatch(/"exp".*required/);
    });

    it('refuses an assertion that has expired or lives more than an hour', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      const seconds = Math.floor(now / 1000);
      const past = await exchange(await assertion(token, { exp: seconds }, { now }));
      expect(await expectOAuthError(past, 400, 'invalid_grant')).toContain('expired');
      const far = await exchange(await assertion(token, { exp: seconds + 3601 }, { now }));
      expect(await expectOAuthError(far, 400, 'invalid_grant')).toContain('3600 seconds');
      expect((await exchange(await assertion(token, { exp: seconds + 3600 }, { now }))).status).toBe(200);
    });

    it.each([
      ['no aud', { aud: null }, '"aud"'],
      ['a numeric aud', { aud: 42 }, '"aud"'],
      ['no sub nor prn', { sub: null }, '"sub"'],
      ['a numeric sub', { sub: 7 }, '"sub"'],
      ['no iss', { iss: null }, '"iss"'],
      ['an unknown iss', { iss: 'unknown-client' }, 'not a registered client'],
      ['a non-numeric exp', { exp: 'tomorrow' }, 'exp'],
      ['an nbf ahead', { nbf: Math.floor((START + 3 * HOUR) / 1000) }, '"nbf" claim timestamp check failed'],
      ['a non-numeric iat', { iat: 'yesterday' }, '"iat" claim must be a number'],
    ])('refuses an assertion with %s (invalid_grant)', async (_, claims, fragment) => {
      const { token, now, exchange } = await expiredToken(harness);
      const description = await expectOAuthError(
        await exchange(await assertion(token, claims, { now })),
        400,
        'invalid_grant',
      );
      expect(description).toContain(fragment);
    });

    it('refuses an assertion signed with another secret', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      const response = await exchange(await assertion(token, {}, { now, secret: OTHER_APP.clientSecret }));
      expect(await expectOAuthError(response, 400, 'invalid_grant')).toContain('signature');
    });

    it('accepts HS256 only', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      for (const alg of ['HS384', 'HS512']) {
        const response = await exchange(await assertion(token, {}, { now, alg }));
        expect(await expectOAuthError(response, 400, 'invalid_grant')).toContain('HS256');
      }
      const header = btoa(JSON.stringify({ alg: 'none', typ: 'JWT' })).replace(/=+$/, '');
      const unsigned = (await assertion(token, {}, { now })).split('.')[1];
      await expectOAuthError(await exchange(`${header}.${unsigned}.`), 400, 'invalid_grant');
    });

    it('refuses what is not a JWT', async () => {
      const { exchange } = await expiredToken(harness);
      for (const jwt of ['not-a-jwt', 'a.b.c', '...']) {
        const description = await expectOAuthError(await exchange(jwt), 400, 'invalid_grant');
        expect(description).toMatch(/^The assertion is not a well-formed JWT: \S/);
      }
    });

    it('requires the assertion parameter', async () => {
      const { h } = await expiredToken(harness);
      const response = await h.token({ grant_type: JWT_BEARER }, false);
      expect(await expectOAuthError(response, 400, 'invalid_request')).toContain('assertion');
    });

    it('refuses a subject that is not a token of the issuing client', async () => {
      const { h, token, now, exchange } = await expiredToken(harness);
      const unknown = await exchange(await assertion('no-such-token', {}, { now }));
      expect(await expectOAuthError(unknown, 400, 'invalid_grant')).toContain('not an access token');
      // The other app, with its own secret, cannot exchange the demo app's token.
      const stolen = await exchange(
        await assertion(token, { iss: OTHER_APP.clientId }, { now, secret: OTHER_APP.clientSecret }),
      );
      await expectOAuthError(stolen, 400, 'invalid_grant');
      expect(h.check(token)).toMatchObject({ reason: 'expired' });
    });

    it('checks client authentication when one is sent: it must hold and be the issuer', async () => {
      const { h, token, now } = await expiredToken(harness);
      const jwt = await assertion(token, {}, { now });
      const wrongSecret = await h.token(
        { grant_type: JWT_BEARER, assertion: jwt },
        { clientId: DEMO.clientId, clientSecret: 'x' },
      );
      await expectOAuthError(wrongSecret, 401, 'invalid_client');
      const otherClient = await h.token({ grant_type: JWT_BEARER, assertion: jwt }, OTHER_APP);
      expect(await expectOAuthError(otherClient, 400, 'invalid_grant')).toContain('another client');
      expect((await h.token({ grant_type: JWT_BEARER, assertion: jwt })).status).toBe(200);
    });

    it('accepts a client_id without a secret when it is the issuer, as unauthenticated clients send it', async () => {
      const { token, now, exchange } = await expiredToken(harness);
      const response = await exchange(await assertion(token, {}, { now }), { client_id: DEMO.clientId });
      expect(response.status).toBe(200);
    });

    it('accepts a client_id without a secret in the legacy form too', async () => {
      const { h, token, now } = await expiredToken(harness);
      const jwt = await assertion(token, {}, { now });
      const params = { grant_type: 'assertion', assertion_type: JWT_BEARER, assertion: jwt, client_id: DEMO.clientId };
      expect((await h.token(params, false)).status).toBe(200);
    });

    it('refuses a client_id without a secret that is not the issuer (invalid_grant, naming both)', async () => {
      const { h, token, now, exchange } = await expiredToken(harness);
      const response = await exchange(await assertion(token, {}, { now }), { client_id: OTHER_APP.clientId });
      const description = await expectOAuthError(response, 400, 'invalid_grant');
      expect(description).toContain(OTHER_APP.clientId);
      expect(description).toContain('"iss"');
      expect(h.check(token)).toMatchObject({ reason: 'expired' });
    });

    it.each([
      ['has expired', { exp: Math.floor((START + 2 * HOUR) / 1000) - 1 }, {}, 'expired'],
      ['is signed with another secret', {}, { secret: OTHER_APP.clientSecret }, 'signature'],
      ['lacks exp', { exp: null }, {}, '"exp"'],
    ])(
      'answers invalid_grant, not invalid_client, when the assertion of a client_id-only request %s',
      async (_, claims, options, fragment) => {
        const { token, now, exchange } = await expiredToken(harness);
        const jwt = await assertion(token, claims, { now, ...options });
        const description = await expectOAuthError(
          await exchange(jwt, { client_id: DEMO.clientId }),
          400,
          'invalid_grant',
        );
        expect(description).toContain(fragment);
      },
    );

    it('lets a scope parameter narrow the scopes, never widen them', async () => {
      const { h, token, now, exchange } = await expiredToken(harness);
      const narrowed = await exchange(await assertion(token, {}, { now }), { scope: 'public' });
      const narrowToken = await tokenOf(narrowed);
      expect(h.check(narrowToken)).toMatchObject({ ok: true, principal: { scopes: ['public'] } });
      const widened = await exchange(await assertion(narrowToken, {}, { now }), { scope: 'admin' });
      await expectOAuthError(widened, 400, 'invalid_scope');
    });

    it('cannot exchange a token once it was purged, 30 days after its expiry', async () => {
      const { h, token, exchange } = await expiredToken(harness);
      h.clock.advance(31 * 24 * HOUR);
      const now = h.clock.now();
      // Any token issuance runs the purge.
      await h.token({ grant_type: 'client_credentials' });
      expect(h.context.store.all('tokens')).toHaveLength(1);
      await expectOAuthError(await exchange(await assertion(token, {}, { now })), 400, 'invalid_grant');
    });
  });
}
