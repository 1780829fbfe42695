/**
 * Failed logins are throttled per login and per client+address, on the password grant and the authorization
 * page alike: past the free failures, 429 with `Retry-After` and the password left unchecked, the right one
 * included, until the wait passes. Time moves on the harness clock; nothing sleeps.
 */
import { describe, expect, it } from 'vitest';
import {
  DEMO,
  expectOAuthError,
  type Harness,
  hiddenFields,
  type MakeHarness,
  OTHER_APP,
  REDIRECT_URI,
  VISITOR,
} from '../fixture.js';

/** Failures per login that cost nothing, and per client+address (see `login-guard.ts`). */
const FREE_PER_LOGIN = 5;
const FREE_PER_CLIENT_ADDRESS = 20;

const passwordGrant = (h: Harness, username: string, password: string) =>
  h.token({ grant_type: 'password', username, password });

const authorizeQuery = {
  response_type: 'code',
  client_id: DEMO.clientId,
  redirect_uri: REDIRECT_URI,
  scope: 'public',
  state: 'st',
  // The demo app is a native app: a public client, which must use PKCE.
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
};

/** Posts the authorization form as a browser would, with `login` and `password`. */
function submitForm(h: Harness, login: string, password: string): Promise<Response> {
  return h.fetch('/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...authorizeQuery, login, password, decision: 'approve' }),
    redirect: 'manual',
  });
}

/** How many of `responses` have each status, e.g. `{ 400: 5, 429: 55 }`. */
function statusCounts(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export function throttleSuite(harness: MakeHarness): void {
  describe('throttled logins: the password grant', () => {
    it('60 wrong passwords: 5 checked, then 429 slow_down; the right one refused until Retry-After passes', async () => {
      const h = await harness();
      const responses: Response[] = [];
      for (let i = 0; i < 60; i++) responses.push(await passwordGrant(h, DEMO.login, `guess ${i}`));
      expect(statusCounts(responses)).toEqual({ 400: FREE_PER_LOGIN, 429: 60 - FREE_PER_LOGIN });
      const throttled = responses.at(-1)!;
      expect(throttled.headers.get('retry-after')).toBe('1');
      expect(await expectOAuthError(throttled, 429, 'slow_down')).toBe(
        'Too many failed logins: try again in 1 second.',
      );

      const right = await passwordGrant(h, DEMO.login, DEMO.password);
      expect(await expectOAuthError(right, 429, 'slow_down')).toContain('try again');
      h.clock.advance(999);
      expect((await passwordGrant(h, DEMO.login, DEMO.password)).status).toBe(429);
      h.clock.advance(1);
      expect((await passwordGrant(h, DEMO.login, DEMO.password)).status).toBe(200);
    });

    it('doubles the wait with each further failure, up to 15 minutes', async () => {
      const h = await harness();
      for (let i = 0; i < FREE_PER_LOGIN; i++) await passwordGrant(h, DEMO.login, 'wrong');
      const waits: number[] = [];
      for (let i = 0; i < 12; i++) {
        const refused = await passwordGrant(h, DEMO.login, 'wrong');
        expect(refused.status).toBe(429);
        const wait = Number(refused.headers.get('retry-after'));
        waits.push(wait);
        h.clock.advance(wait * 1000);
        await expectOAuthError(await passwordGrant(h, DEMO.login, 'wrong'), 400, 'invalid_grant');
      }
      expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    });

    it('checks no more than the free attempts of a burst sent at once', async () => {
      const h = await harness();
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => passwordGrant(h, DEMO.login, `burst ${i}`)),
      );
      expect(statusCounts(responses)).toEqual({ 400: FREE_PER_LOGIN, 429: 30 - FREE_PER_LOGIN });
    });

    it('forgets a login’s failures once the user gets in', async () => {
      const h = await harness();
      for (let i = 0; i < FREE_PER_LOGIN - 1; i++) {
        await expectOAuthError(await passwordGrant(h, DEMO.login, 'wrong'), 400, 'invalid_grant');
      }
      expect((await passwordGrant(h, DEMO.login, DEMO.password)).status).toBe(200);
      for (let i = 0; i < FREE_PER_LOGIN - 1; i++) {
        await expectOAuthError(await passwordGrant(h, DEMO.login, 'wrong'), 400, 'invalid_grant');
      }
    });

    it('counts one login’s failures apart from another’s', async () => {
      const h = await harness();
      for (let i = 0; i < FREE_PER_LOGIN; i++) await passwordGrant(h, DEMO.login, 'wrong');
      expect((await passwordGrant(h, DEMO.login, DEMO.password)).status).toBe(429);
      const other = await h.token(
        { grant_type: 'password', username: VISITOR.login, password: VISITOR.password },
        OTHER_APP,
      );
      expect(other.status).toBe(200);
    });

    it(`throttles a client at one address after ${FREE_PER_CLIENT_ADDRESS} failures, whatever the logins`, async () => {
      const h = await harness();
      for (let i = 0; i < FREE_PER_CLIENT_ADDRESS; i++) {
        await expectOAuthError(await passwordGrant(h, `user-${i}`, 'password1'), 400, 'invalid_grant');
      }
      const sprayed = await passwordGrant(h, DEMO.login, DEMO.password);
      await expectOAuthError(sprayed, 429, 'slow_down');
      expect(sprayed.headers.get('retry-after')).toBe('1');
      // Another client from the same address is counted apart.
      const other = await h.token(
        { grant_type: 'password', username: VISITOR.login, password: VISITOR.password },
        OTHER_APP,
      );
      expect(other.status).toBe(200);
      h.clock.advance(1000);
      expect((await passwordGrant(h, DEMO.login, DEMO.password)).status).toBe(200);
    });
  });

  describe('throttled logins: the authorization page', () => {
    it('60 wrong passwords: 5 checked, then a 429 page with Retry-After; the right one refused until it passes', async () => {
      const h = await harness();
      const responses: Response[] = [];
      for (let i = 0; i < 60; i++) responses.push(await submitForm(h, DEMO.login, `guess ${i}`));
      expect(statusCounts(responses)).toEqual({ 200: FREE_PER_LOGIN, 429: 60 - FREE_PER_LOGIN });
      expect(await responses[0]!.text()).toContain('The login or password is incorrect.');

      const right = await submitForm(h, DEMO.login, DEMO.password);
      expect(right.status).toBe(429);
      expect(right.headers.get('retry-after')).toBe('1');
      expect(right.headers.get('location')).toBeNull();
      expect(right.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(right.headers.get('cache-control')).toBe('no-store');
      const html = await right.text();
      expect(html).toContain('Too many failed logins: try again in 1 second.');
      expect(html).toContain(`Request id: <code>${right.headers.get('x-request-id')}</code>`);
      // The form is there again, filled in, for when the wait has passed.
      expect(hiddenFields(html)).toMatchObject({ client_id: DEMO.clientId, state: 'st' });
      expect(html).toContain(`value="${DEMO.login}"`);
      expect(h.context.store.all('codes')).toHaveLength(0);

      h.clock.advance(1000);
      const approved = await submitForm(h, DEMO.login, DEMO.password);
      expect(approved.status).toBe(303);
      expect(new URL(approved.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    });

    it('shares the count with the password grant', async () => {
      const h = await harness();
      for (let i = 0; i < FREE_PER_LOGIN; i++) await passwordGrant(h, DEMO.login, 'wrong');
      expect((await submitForm(h, DEMO.login, DEMO.password)).status).toBe(429);
    });
  });
}
