/**
 * The token state shared by the strategies that obtain tokens (client credentials, password, authorized):
 * the current token, its renewal shortly before expiry, and the single flight that renews it after a 401.
 */
import { AuthorizationLostError, OAuthError, TokenStoreError } from '../errors/index.js';
import { sleep } from '../http/retry.js';
import { abortable } from './abortable.js';
import { createMemoryTokenStore, type TokenStore } from './token-store.js';
import type { AuthStrategy, Credentials, TokenInfo } from './types.js';

/** Called once per new token so that the app can persist it; a rejection reaches the requests waiting for it. */
export type OnToken = (token: TokenInfo) => void | Promise<void>;

/**
 * Called once when the authorization is lost (see {@link AuthorizationLostError}), with that error: resolve with a
 * token to go on with (the user authorized again, or the one `onToken` saved), or with nothing to give up.
 */
export type OnAuthorizationLost = (
  error: AuthorizationLostError,
) => TokenInfo | undefined | Promise<TokenInfo | undefined>;

export interface TokenKeeperOptions {
  /** Stable identity of whom the tokens act for (see {@link Credentials.owner}); may take a digest to compute. */
  owner: string | Promise<string>;
  /** The authorization service, whose origin gets the credentials too. */
  authUrl: string;
  /**
   * Obtains a new token; `previous` is the token it replaces (expired, rejected, or about to expire), if any.
   * `fetch` is that of the client whose request needs the token, for a strategy given no `fetch` of its own.
   */
  obtain(previous: string | undefined, fetch: typeof globalThis.fetch | undefined): Promise<TokenInfo>;
  /**
   * Whether a token can be obtained without a previous one (client credentials, password). When it cannot
   * (authorized), a refusal from the token endpoint is final: later calls fail at once with the same error.
   */
  standalone: boolean;
  /**
   * Whether a refusal of `obtain` says that `previous` was already exchanged (authorized): the token that replaced
   * it is then in another instance's hands, or lost.
   */
  exchanged?(error: unknown): error is OAuthError;
  onAuthorizationLost?: OnAuthorizationLost;
  /** A token to start with (authorized). */
  initial?: TokenInfo;
  onToken?: OnToken;
  now: () => number;
  /** Where the current token lives; see `SharedTokenOptions`. Default: a store of this keeper's own. */
  store?: TokenStore;
  /** Lifetime of the refresh lease in ms. Default 30 000. */
  lease?: number;
}

/** Renew this long before expiry at most, so that a request does not leave with a token about to die. */
const MAX_MARGIN_MS = 30_000;
const DEFAULT_LEASE_MS = 30_000;
/** How often an instance waiting for another one's refresh looks at the store. */
const POLL_MS = 50;
/** How often a token the store failed to take is offered again. */
const RESAVE_MS = 500;

/** The token keeper behind the refreshing strategies; see {@link AuthStrategy} for the contract. */
export class TokenKeeper implements Required<AuthStrategy> {
  readonly origin: string;
  readonly #options: TokenKeeperOptions;
  readonly #store: TokenStore;
  #current: { info: TokenInfo; renewAt: number } | undefined;
  /** Renewals in flight, keyed by the token they replace (`''` for the first one). */
  readonly #flights = new Map<string, Promise<TokenInfo>>();
  /** A token this keeper gave up after it failed to replace it: never taken back from the store. */
  #discarded: string | undefined;
  /** Set when renewal is impossible for good (the authorization was revoked, or lost). */
  #refused: OAuthError | undefined;

  constructor(options: TokenKeeperOptions) {
    this.#options = options;
    this.#store = options.store ?? createMemoryTokenStore(options.now);
    // A relative `authUrl` (a browser app on the API's origin) is the page's.
    this.origin = new URL(options.authUrl, globalThis.location?.href).origin;
    if (options.initial) this.#hold(options.initial);
  }

  async credentials(signal?: AbortSignal, fetch?: typeof globalThis.fetch): Promise<Credentials> {
    if (this.#refused) throw this.#refused;
    const current = this.#current;
    if (current) {
      // A request leaving while its token is being replaced waits for the replacement rather than collect a 401.
      const flight = this.#flights.get(current.info.accessToken);
      if (flight) return this.#credentialsOf(await abortable(flight, signal));
      if (this.#options.now() < current.renewAt) return this.#credentialsOf(current.info);
    }
    return this.#credentialsOf(await abortable(this.#renew(current?.info.accessToken, fetch), signal));
  }

  async refresh(failed: Credentials, signal?: AbortSignal, fetch?: typeof globalThis.fetch): Promise<Credentials> {
    if (this.#refused) throw this.#refused;
    const current = this.#current;
    // Already replaced since that request left: retry with the new token, no token request.
    if (current && current.info.accessToken !== failed.token) return this.#credentialsOf(current.info);
    // Already forgotten after a failed renewal: join the fresh start other requests may have begun.
    return this.#credentialsOf(await abortable(this.#renew(current ? failed.token : undefined, fetch), signal));
  }

  async #credentialsOf(info: TokenInfo): Promise<Credentials> {
    return { token: info.accessToken, owner: await this.#options.owner };
  }

  #hold(info: TokenInfo): TokenInfo {
    // A token without expiry is renewed never: infinity less any margin.
    const { expiresAt = Number.POSITIVE_INFINITY } = info;
    const margin = Math.min(MAX_MARGIN_MS, Math.max(0, expiresAt - this.#options.now()) / 10);
    this.#current = { info, renewAt: expiresAt - margin };
    return info;
  }

  #renew(previous: string | undefined, fetch: typeof globalThis.fetch | undefined): Promise<TokenInfo> {
    const key = previous ?? '';
    let flight = this.#flights.get(key);
    if (flight) return flight;
    flight = this.#replace(previous, fetch)
      .catch((error: unknown) => {
        this.#failed(previous, error);
        throw error;
      })
      .finally(() => this.#flights.delete(key));
    this.#flights.set(key, flight);
    return flight;
  }

  /**
   * A token to replace `previous` with: one another instance already stored, else a new one obtained under the
   * store's lease, so that of all the instances sharing the store only one asks the token endpoint.
   */
  async #replace(previous: string | undefined, fetch: typeof globalThis.fetch | undefined): Promise<TokenInfo> {
    const key = await this.#options.owner;
    const leaseMs = this.#options.lease ?? DEFAULT_LEASE_MS;
    // A holder that died frees the lease after `leaseMs`; waiting twice that means the store is not working. On
    // the keeper's clock, the one the memory store's leases run on.
    const { now } = this.#options;
    const deadline = now() + 2 * leaseMs;
    for (;;) {
      const seen = this.#replacement(await this.#store.get(key), previous);
      if (seen) return this.#hold(seen);
      const lease = await this.#store.acquire(key, leaseMs);
      if (lease === undefined) {
        if (now() > deadline) {
          throw new TokenStoreError(
            `no token refresh finished within ${2 * leaseMs} ms while another instance held the lease`,
          );
        }
        await sleep(POLL_MS);
        continue;
      }
      let refusal: OAuthError;
      try {
        return await this.#obtain(key, previous, fetch);
      } catch (error) {
        if (!this.#options.exchanged?.(error)) throw error;
        refusal = error;
      } finally {
        await this.#store.release(key, lease).catch(() => {});
      }
      // Outside the lease, so that the other instances are not kept from looking at the store meanwhile.
      return this.#lost(key, previous, refusal, leaseMs);
    }
  }

  /** Under the lease: a token another instance stored since our look, else a new one. */
  async #obtain(key: string, previous: string | undefined, fetch: typeof globalThis.fetch | undefined) {
    const latest = await this.#store.get(key);
    const raced = this.#replacement(latest, previous);
    if (raced) return this.#hold(raced);
    // Held before it is stored: the server now accepts this token only (it revoked `previous`), whatever the store
    // answers. Stored and handed to `onToken` at once, so that it is lost only if both fail.
    const info = this.#hold(await this.#options.obtain(previous, fetch));
    const saved = this.#save(key, latest?.accessToken, info);
    try {
      await this.#options.onToken?.(info);
    } finally {
      await saved;
    }
    return info;
  }

  /**
   * Offers `info`, which replaces `replaced`, to the store. While the store fails, offered again every
   * `RESAVE_MS` for as long as this keeper holds it: once the store is back the other instances adopt it, instead
   * of exchanging a token the server revoked. Never rejects.
   */
  async #save(key: string, replaced: string | undefined, info: TokenInfo): Promise<void> {
    if (this.#current?.info !== info) return;
    try {
      // Refused when another instance's token is there (kept), or when the store lost its data in a restart (filled).
      if (!(await this.#store.compareAndSet(key, replaced, info)) && !(await this.#store.get(key))) {
        await this.#store.compareAndSet(key, undefined, info);
      }
    } catch {
      // Node: a retry does not keep the process alive.
      Object(setTimeout(() => this.#save(key, replaced, info), RESAVE_MS)).unref?.();
    }
  }

  /**
   * The server answered that `previous` was already exchanged. The instance holding its replacement may store it
   * late (its store failed), so a shared store is watched for one lease; past that the authorization is lost, and
   * `onAuthorizationLost` may give a token to go on with.
   */
  async #lost(key: string, previous: string | undefined, refusal: OAuthError, leaseMs: number): Promise<TokenInfo> {
    const { now, store } = this.#options;
    for (const until = now() + leaseMs; store && now() < until; ) {
      await sleep(POLL_MS);
      const seen = this.#replacement(await this.#store.get(key).catch(() => undefined), previous);
      if (seen) return this.#hold(seen);
    }
    // Refused from now on, also while the app re-authorizes: no request waits on a person, none exchanges again.
    const error = new AuthorizationLostError(key, refusal);
    this.#refused = error;
    const info = await this.#options.onAuthorizationLost?.(error);
    // The lost token itself (the app's saved copy was no newer) would be refused again: nothing gained.
    if (!info || info.accessToken === previous) throw error;
    this.#refused = undefined;
    this.#hold(info);
    await this.#save(key, previous, info);
    return info;
  }

  /** `stored` when it replaces `previous`: another token, not expired. */
  #replacement(stored: TokenInfo | undefined, previous: string | undefined): TokenInfo | undefined {
    if (!stored || stored.accessToken === previous || stored.accessToken === this.#discarded) return undefined;
    return stored.expiresAt === undefined || stored.expiresAt > this.#options.now() ? stored : undefined;
  }

  #failed(previous: string | undefined, error: unknown): void {
    if (this.#current?.info.accessToken !== previous) return;
    // Without a usable token, the next request obtains a fresh one (one token request per request, never a loop);
    // without any way to obtain one, a refusal is final.
    if (this.#options.standalone) {
      this.#current = undefined;
      this.#discarded = previous;
    } else if (error instanceof OAuthError) this.#refused = error;
  }
}
