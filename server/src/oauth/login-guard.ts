/**
 * The password checks of the password grant and the authorization page, throttled per login and per
 * client+address (wire contract, "Authorization service"). While a key waits, every attempt under it is
 * refused unchecked, the right password included: otherwise a guesser would only have to keep going.
 *
 * - Per login: guessing one user's password from many addresses. A success clears it: the user is in.
 * - Per client and address: one address trying many logins through one app (password spraying, which the
 *   per-login count never sees). A success does not clear it, or a guesser with an account of their own
 *   could log into it now and then to start over; it forgets after an hour without failures instead, and
 *   lets more failures through, since people behind one address (an office) share it.
 */
import type { CoreContext } from '../core/types.js';
import type { AppRow, UserRow } from '../store/types.js';
import { addressKey } from './client-address.js';
import { type AttemptOutcome, type BackoffPolicy, FailureThrottle } from './failure-throttle.js';
import { hashSecret } from './secrets.js';
import { verifyLogin } from './users.js';

const MINUTE_MS = 60_000;

const PER_LOGIN: BackoffPolicy = {
  free: 5,
  baseMs: 1000,
  maxMs: 15 * MINUTE_MS,
  forgetMs: 24 * 60 * MINUTE_MS,
  resetOnSuccess: true,
};

const PER_CLIENT_ADDRESS: BackoffPolicy = {
  free: 20,
  baseMs: 1000,
  maxMs: 15 * MINUTE_MS,
  forgetMs: 60 * MINUTE_MS,
  resetOnSuccess: false,
};

/** A login attempt through an app, from an address (the shell's; none under MSW). */
export interface LoginAttempt {
  app: AppRow;
  login: string;
  password: string;
  address: string | undefined;
}

/** What became of a login attempt. */
export type LoginOutcome =
  | { status: 'accepted'; user: UserRow }
  | { status: 'refused' }
  /** Not checked: too many failures; `retryAfter` whole seconds until an attempt is checked again. */
  | { status: 'throttled'; retryAfter: number };

/** Checks login attempts against the store, throttling failures. */
export interface LoginGuard {
  check(attempt: LoginAttempt): Promise<LoginOutcome>;
}

/** A guard's check for one request, whose address the endpoint fills in. */
export type LoginCheck = (attempt: Omit<LoginAttempt, 'address'>) => Promise<LoginOutcome>;

/** A guard with its own counts: one per authorization service, so that every core (every MSW mock) starts clean. */
export function createLoginGuard(context: Pick<CoreContext, 'store' | 'clock'>): LoginGuard {
  const logins = new FailureThrottle(context.clock, PER_LOGIN);
  const clients = new FailureThrottle(context.clock, PER_CLIENT_ADDRESS);
  return {
    async check({ app, login, password, address }) {
      // Hashed: a login may be up to a form's 16 KiB, and the count must not keep that much per key.
      const counts = [
        [logins, hashSecret(login)],
        [clients, `${app.id} ${addressKey(address)}`],
      ] as const;
      // With a store other processes share, their failures count too: read before the wait is decided.
      const shared = context.store.failures;
      const keys = counts.map(([throttle, key]) => `${throttle === logins ? 'login' : 'client'} ${key}`);
      const adopt = (found: Map<string, { failures: number; last: number }>) =>
        counts.forEach(([throttle, key], i) => {
          const count = found.get(keys[i]!);
          if (count) throttle.adopt(key, count.failures, count.last);
        });
      // The database unreachable: this process's counts still hold.
      if (shared) adopt(await shared.read(keys).catch(() => new Map()));
      const retryAfter = Math.max(...counts.map(([throttle, key]) => throttle.wait(key)));
      if (retryAfter > 0) return { status: 'throttled', retryAfter };
      for (const [throttle, key] of counts) throttle.begin(key);
      let outcome: AttemptOutcome = 'error';
      try {
        const user = await verifyLogin(context.store, login, password);
        outcome = user ? 'success' : 'failure';
        return user ? { status: 'accepted', user } : { status: 'refused' };
      } finally {
        for (const [throttle, key] of counts) throttle.end(key, outcome);
        if (shared && outcome === 'failure') {
          const now = context.clock.now();
          const policies = [PER_LOGIN, PER_CLIENT_ADDRESS];
          const after = await Promise.all(
            keys.map((key, i) =>
              shared.fail(key, now, policies[i]!.forgetMs).then(
                (count) => [key, count] as const,
                () => undefined,
              ),
            ),
          );
          adopt(new Map(after.filter((entry) => entry !== undefined)));
        } else if (shared && outcome === 'success' && PER_LOGIN.resetOnSuccess) {
          await shared.clear(keys[0]!).catch(() => undefined);
        }
      }
    },
  };
}

/** What the user is told while throttled, on the page and in the token endpoint's `error_description`. */
export function throttledMessage(retryAfter: number): string {
  const wait =
    retryAfter < 90 ? `${retryAfter} second${retryAfter === 1 ? '' : 's'}` : `${Math.ceil(retryAfter / 60)} minutes`;
  return `Too many failed logins: try again in ${wait}.`;
}
