import { describe, expect, it } from 'vitest';
import { DEMO, expectOAuthError, type Harness, type MakeHarness, OTHER_APP, tokenOf, VISITOR } from '../fixture.js';

/** The principal a token stands for, as the resource API sees it. */
function principalOf(h: Harness, token: string) {
  const result = h.check(token);
  if (!result.ok) throw new Error(`Token rejected: ${result.reason}`);
  return result.principal;
}

export function grantsSuite(harness: MakeHarness): void {
  describe('client credentials grant', () => {
    it('acts as the app owner with the default scope public', async () => {
      const h = await harness();
      const response = await h.token({ grant_type: 'client_credentials' });
      const body = await response.clone().json();
      expect(body).toMatchObject({ scopes: 'public', scope: 'public' });
      const principal = principalOf(h, await tokenOf(response));
      expect(principal).toMatchObject({ userId: '1', appId: '1', scopes: ['public'] });
    });

    it('grants admin to an owner who administers a shop', async () => {
      const h = await harness();
      const principal = principalOf(
        h,
        await tokenOf(await h.token({ grant_type: 'client_credentials', scope: 'admin' })),
      );
      expect(principal.scopes).toEqual(['admin']);
    });

    it('accepts several scopes separated by spaces or commas, in a fixed order', async () => {
      const h = await harness();
      for (const scope of ['public admin', 'admin,public', 'public, admin admin']) {
        const body = await (await h.token({ grant_type: 'client_credentials', scope })).json();
        expect(body).toMatchObject({ scopes: 'admin,public', scope: 'admin public' });
      }
    });

    it('refuses admin to an owner who administers no shop (invalid_scope)', async () => {
      const h = await harness();
      const response = await h.token({ grant_type: 'client_credentials', scope: 'admin' }, OTHER_APP);
      expect(await expectOAuthError(response, 400, 'invalid_scope')).toContain('admin');
    });

    it('refuses an unknown scope (invalid_scope)', async () => {
      const h = await harness();
      const description = await expectOAuthError(
        await h.token({ grant_type: 'client_credentials', scope: 'public write' }),
        400,
        'invalid_scope',
      );
      expect(description).toContain('"write"');
    });

    it('answers unauthorized_client when the app has lost its owner', async () => {
      const h = await harness();
      await h.context.store.write((tx) => tx.update('apps', '1', { owner_id: 'gone' }));
      await expectOAuthError(await h.token({ grant_type: 'client_credentials' }), 400, 'unauthorized_client');
    });
  });

  describe('password grant', () => {
    it('issues a token for the user whose credentials are given', async () => {
      const h = await harness();
      const response = await h.token({ grant_type: 'password', username: DEMO.login, password: DEMO.password });
      expect(principalOf(h, await tokenOf(response))).toMatchObject({ userId: '1', appId: '1', scopes: ['public'] });
    });

    it('acts as the user, not the app owner', async () => {
      const h = await harness();
      const response = await h.token({ grant_type: 'password', username: VISITOR.login, password: VISITOR.password });
      expect(principalOf(h, await tokenOf(response)).userId).toBe('visitor');
    });

    it('grants admin to a shop administrator and refuses it to other users', async () => {
      const h = await harness();
      const admin = await h.token({
        grant_type: 'password',
        username: DEMO.login,
        password: DEMO.password,
        scope: 'admin',
      });
      expect((await admin.json()).scopes).toBe('admin');
      const visitor = await h.token({
        grant_type: 'password',
        username: VISITOR.login,
        password: VISITOR.password,
        scope: 'admin',
      });
      await expectOAuthError(visitor, 400, 'invalid_scope');
    });

    it('answers invalid_grant for a wrong password, an unknown user or a user who cannot log in', async () => {
      const h = await harness();
      for (const [username, password] of [
        [DEMO.login, 'wrong'],
        [DEMO.login, `${DEMO.password} `],
        ['nobody', DEMO.password],
        ['juniper', 'disabled'],
      ] as const) {
        const response = await h.token({ grant_type: 'password', username, password });
        expect(await expectOAuthError(response, 400, 'invalid_grant')).toBe('The username or password is incorrect');
      }
    });

    it('requires username and password (invalid_request)', async () => {
      const h = await harness();
      expect(
        await expectOAuthError(await h.token({ grant_type: 'password', password: 'x' }), 400, 'invalid_request'),
      ).toContain('username');
      expect(
        await expectOAuthError(await h.token({ grant_type: 'password', username: DEMO.login }), 400, 'invalid_request'),
      ).toContain('password');
    });

    it('authenticates the client first (invalid_client)', async () => {
      const h = await harness();
      const response = await h.token(
        { grant_type: 'password', username: DEMO.login, password: DEMO.password },
        { clientId: DEMO.clientId, clientSecret: 'wrong' },
      );
      await expectOAuthError(response, 401, 'invalid_client');
    });

    it('takes a password with form-encoded special characters', async () => {
      const h = await harness();
      const response = await h.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=password&username=${VISITOR.login}&password=${encodeURIComponent(VISITOR.password)}&client_id=${DEMO.clientId}&client_secret=${encodeURIComponent(DEMO.clientSecret)}`,
      });
      expect(response.status).toBe(200);
    });
  });

  describe('token expiry', () => {
    it('expires a token after expires_in seconds of the injected clock', async () => {
      const h = await harness({ tokenTtl: 600 });
      const token = await tokenOf(await h.token({ grant_type: 'client_credentials' }));
      const check = () => h.check(token);
      h.clock.advance(599_999);
      expect(check().ok).toBe(true);
      h.clock.advance(1);
      expect(check()).toMatchObject({ ok: false, reason: 'expired', status: 401 });
    });
  });
}
