/**
 * The seam between the SDK's transport and its authentication strategies (bearer, client credentials,
 * password, authorized + JWT bearer refresh). The transport asks for credentials before each request and,
 * after a 401, asks for a refresh keyed by the credentials that failed. With each call it lends the client's
 * `fetch`, for the token requests of a strategy given none: a strategy may serve several clients, so it keeps none.
 */

/** What a request is sent with. */
export interface Credentials {
  /** The access token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /**
   * Stable identity of whom the token acts for, and through which app (e.g. `client:<id>:<scope>` or
   * `user:<client id>:<login>:<scope>`); it stays the same across refreshes, keys the token stores, and partitions
   * the HTTP cache and the rate budgets so that two owners never share entries.
   */
  owner: string;
}

/** A new token, as handed to `onToken` so that the app can persist it. */
export interface TokenInfo {
  accessToken: string;
  tokenType: 'Bearer';
  /** Epoch ms at which the token expires, when known. */
  expiresAt?: number;
  /** Granted scopes. */
  scopes: string[];
}

/** An authentication strategy. */
export interface AuthStrategy {
  /**
   * Origin of the strategy's token endpoint (`https://auth.example.com`), which gets the credentials too, besides
   * the API's origin and the client's `trustedOrigins`. Absent for a strategy without a token endpoint (a fixed token).
   */
  readonly origin?: string;
  /**
   * Credentials for the next request, fetching a token first when needed; `undefined` sends no Authorization.
   * `fetch` is the client's, for that token request when the strategy has no `fetch` of its own.
   */
  credentials(signal?: AbortSignal, fetch?: typeof globalThis.fetch): Promise<Credentials | undefined>;
  /**
   * Called after a 401 to a request sent with `failed`. Concurrent calls for the same failed token share one
   * token request (single flight), sent with the `fetch` of the first call when the strategy has none of its own.
   * Resolves with credentials to retry once with; rejects with a typed error when no refresh is possible. Absent
   * when the strategy cannot refresh (a plain bearer token).
   */
  refresh?(failed: Credentials, signal?: AbortSignal, fetch?: typeof globalThis.fetch): Promise<Credentials>;
}
