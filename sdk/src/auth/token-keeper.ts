/**
 * The token state shared by the strategies that obtain tokens (client credentials, password, authorized):
 * the current token, its renewal shortly before expiry, and the single flight that renews it after a 401.
 */
import { OAuthError } from '../errors/index.js';
import { abortable } from './abortable.js';
import type { AuthStrategy, Credentials, TokenInfo } from './types.js';

/** Called once per new token so that the app can persist it; a rejection reaches the requests waiting for it. */
export type OnToken = (token: TokenInfo) => void | Promise<void>;

export interface TokenKeeperOptions {
  /** Stable identity of whom the tokens act for (see {@link Credentials.owner}); may take a digest to compute. */
  owner: string | Promise<string>;
  /** Obtains a new token; `previous` is the token it replaces (expired, rejected, or about to expire), if any. */
  obtain(previous: string | undefined): Promise<TokenInfo>;
  /**
   * Whether a token can be obtained without a previous one (client credentials, password). When it cannot
   * (authorized), a refusal from the token endpoint is final: later calls fail at once with the same error.
   */
  standalone: boolean;
  /** A token to start with (authorized). */
  initial?: TokenInfo;
  onToken?: OnToken;
  now: () => number;
}

/** Renew this long before expiry at most, so that a request does not leave with a token about to die. */
const MAX_MARGIN_MS = 30_000;

/** The token keeper behind the refreshing strategies; see {@link AuthStrategy} for the contract. */
export class TokenKeeper implements Required<AuthStrategy> {
  readonly #options: TokenKeeperOptions;
  #current: { info: TokenInfo; renewAt: number } | undefined;
  /** Renewals in flight, keyed by the token they replace (`''` for the first one). */
  readonly #flights = new Map<string, Promise<TokenInfo>>();
  /** Set when renewal is impossible for good (the authorization was revoked). */
  #refused: OAuthError | undefined;

  constructor(options: TokenKeeperOptions) {
    this.#options = options;
    if (options.initial) this.#hold(options.initial);
  }

  async credentials(signal?: AbortSignal): Promise<Credentials> {
    if (this.#refused) throw this.#refused;
    const current = this.#current;
    if (current) {
      // A request leaving while its token is being replaced waits for the replacement rather than collect a 401.
      const flight = this.#flights.get(current.info.accessToken);
      if (flight) return this.#credentialsOf(await abortable(flight, signal));
      if (this.#options.now() < current.renewAt) return this.#credentialsOf(current.info);
    }
    return this.#credentialsOf(await abortable(this.#renew(current?.info.accessToken), signal));
  }

  async refresh(failed: Credentials, signal?: AbortSignal): Promise<Credentials> {
    if (this.#refused) throw this.#refused;
    const current = this.#current;
    // Already replaced since that request left: retry with the new token, no token request.
    if (current && current.info.accessToken !== failed.token) return this.#credentialsOf(current.info);
    // Already forgotten after a failed renewal: join the fresh start other requests may have begun.
    return this.#credentialsOf(await abortable(this.#renew(current ? failed.token : undefined), signal));
  }

  async #credentialsOf(info: TokenInfo): Promise<Credentials> {
    return { token: info.accessToken, owner: await this.#options.owner };
  }

  #hold(info: TokenInfo): void {
    const now = this.#options.now();
    const margin = info.expiresAt === undefined ? 0 : Math.min(MAX_MARGIN_MS, Math.max(0, info.expiresAt - now) / 10);
    this.#current = {
      info,
      renewAt: info.expiresAt === undefined ? Number.POSITIVE_INFINITY : info.expiresAt - margin,
    };
  }

  #renew(previous: string | undefined): Promise<TokenInfo> {
    const key = previous ?? '';
    let flight = this.#flights.get(key);
    if (flight) return flight;
    // Built with `new Promise` so that a synchronous throw of `obtain` also reaches every waiter.
    flight = new Promise<TokenInfo>((resolve) => resolve(this.#options.obtain(previous)))
      .then(
        async (info) => {
          this.#hold(info);
          await this.#options.onToken?.(info);
          return info;
        },
        (error: unknown) => {
          this.#failed(previous, error);
          throw error;
        },
      )
      .finally(() => this.#flights.delete(key));
    this.#flights.set(key, flight);
    return flight;
  }

  #failed(previous: string | undefined, error: unknown): void {
    if (this.#current?.info.accessToken !== previous) return;
    // Without a usable token, the next request obtains a fresh one (one token request per request, never a loop);
    // without any way to obtain one, a refusal is final.
    if (this.#options.standalone) this.#current = undefined;
    else if (error instanceof OAuthError) this.#refused = error;
  }
}
