import { authorizeUrl, exchangeCode, readImplicitFragment, type TokenInfo } from '@storefront-platform/sdk';

/** Where the token is kept: the app decides (session storage by default, memory, a cookie via its backend…). */
export interface TokenStorage {
  get(): TokenInfo | undefined;
  /** `undefined` forgets it (signing out). */
  set(token: TokenInfo | undefined): void;
}

/** A {@link TokenStorage} in the tab's `sessionStorage` under `key` (an expired token reads as none). */
export function sessionTokenStorage(key = 'storefront:token'): TokenStorage {
  return {
    get() {
      const text = globalThis.sessionStorage?.getItem(key);
      if (!text) return undefined;
      const token = parseToken(text);
      // Something else wrote the key (another version, a hand edit, a cut-off write): signed out, not a crashed tree.
      if (!token) sessionStorage.removeItem(key);
      return token && (token.expiresAt === undefined || token.expiresAt > Date.now()) ? token : undefined;
    },
    set(token) {
      if (token) sessionStorage.setItem(key, JSON.stringify(token));
      else sessionStorage.removeItem(key);
    },
  };
}

/** A stored token, or `undefined` when `text` is not one. */
function parseToken(text: string): TokenInfo | undefined {
  let token: Partial<TokenInfo> | null;
  try {
    token = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof token?.accessToken === 'string' && token.accessToken !== '' ? (token as TokenInfo) : undefined;
}

/** What the authorization code flow hands to the app's backend, which holds the client secret. */
export interface CodeCallback {
  /** The URL the browser came back to (`?code=…&state=…`). */
  callbackUrl: string;
  state: string;
  codeVerifier: string;
  redirectUri: string;
}

/** How the app signs its users in through the authorization server's page. */
export interface SignInOptions {
  /** `{auth_url}`: the authorize page is `{authUrl}/oauth/authorize`. */
  authUrl: string;
  clientId: string;
  scope?: 'admin' | 'public';
  /**
   * Where the browser comes back; registered for the app. Default: `{origin}/callback` (on a dev server,
   * `http://localhost:5173/callback`, which the reference server's demo app takes on any port).
   */
  redirectUri?: string;
  /**
   * `code` (default): the authorization code with PKCE (RFC 9700). The page exchanges the code itself as a public
   * client (client id and PKCE verifier, no secret), or hands it to `exchange`. `implicit`: the token comes back in
   * the URL fragment, only for an app registered for that grant; it cannot be renewed.
   */
  flow?: 'implicit' | 'code';
  /**
   * With `flow: 'code'`: sends the callback to the app's backend (which holds the client secret and calls the SDK's
   * `exchangeCode`) and resolves with the token it got. Default: the page exchanges the code as a public client.
   */
  exchange?: (callback: CodeCallback) => Promise<TokenInfo>;
  /** Where the token is kept. Default: `sessionTokenStorage()`. */
  storage?: TokenStorage;
}

const PENDING = 'storefront:sign-in';

/** What is kept across the trip to the authorize page. */
interface Pending {
  state: string;
  codeVerifier?: string;
  redirectUri: string;
}

export function redirectUriOf(options: SignInOptions): string {
  return options.redirectUri ?? `${location.origin}/callback`;
}

/** Sends the tab to the authorize page. */
export async function startSignIn(options: SignInOptions): Promise<void> {
  const redirectUri = redirectUriOf(options);
  // PKCE's challenge is a SHA-256 of Web Crypto, which browsers give to secure contexts only: a page on
  // http://192.168.1.20 has no `crypto.subtle`, and the SDK would fail reading `digest` of undefined.
  if (options.flow !== 'implicit' && !globalThis.crypto?.subtle) {
    throw new Error(
      `Sign-in with the code flow needs a secure context (https://, or http://localhost or 127.0.0.1) for PKCE; ${location.origin} is not one`,
    );
  }
  const request = await authorizeUrl({
    authUrl: options.authUrl,
    clientId: options.clientId,
    redirectUri,
    scope: options.scope,
    responseType: options.flow === 'implicit' ? 'token' : 'code',
  });
  const pending: Pending = { state: request.state, codeVerifier: request.codeVerifier, redirectUri };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  location.assign(request.url);
}

type Finished = TokenInfo | Promise<TokenInfo> | undefined;

/**
 * The callback finished in the code running now: React 18's StrictMode runs a state initializer twice in one
 * synchronous render (with the same options), and the second run, finding the callback taken, would otherwise drop
 * the first run's token or exchange. Another provider's options find nothing. Forgotten at the next microtask.
 */
let finishedNow: { options: SignInOptions; outcome: { value: Finished } | { error: unknown } } | undefined;

/**
 * Back from the authorize page: the token of the implicit flow (read now), or the code exchange (a promise), with
 * the callback's parameters taken out of the address bar. `undefined` when this page is no callback. Called again
 * in the same synchronous run, it returns (or throws) the same outcome.
 */
export function finishSignIn(options: SignInOptions): Finished {
  if (finishedNow?.options !== options) {
    let outcome: { value: Finished } | { error: unknown };
    try {
      outcome = { value: finishCallback(options) };
    } catch (error) {
      outcome = { error };
    }
    const finished = { options, outcome };
    finishedNow = finished;
    queueMicrotask(() => {
      if (finishedNow === finished) finishedNow = undefined;
    });
  }
  const { outcome } = finishedNow;
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

function finishCallback(options: SignInOptions): Finished {
  if (typeof location === 'undefined') return undefined;
  const text = sessionStorage.getItem(PENDING);
  const back = /[#&?](?:access_token|code|error)=/.test(location.href);
  if (!text || !back) return undefined;
  const pending = JSON.parse(text) as Pending;
  // Only the page the sign-in returns to: another page's own `?code=` (a voucher) is no callback.
  if (new URL(pending.redirectUri).pathname !== location.pathname) return undefined;
  sessionStorage.removeItem(PENDING);
  const callbackUrl = location.href;
  history.replaceState(
    history.state,
    '',
    new URL(pending.redirectUri).pathname === location.pathname ? '/' : location.pathname,
  );
  if (options.flow === 'implicit') return readImplicitFragment({ callbackUrl, state: pending.state });
  const callback = {
    callbackUrl,
    state: pending.state,
    codeVerifier: pending.codeVerifier ?? '',
    redirectUri: pending.redirectUri,
  };
  const exchanged = options.exchange
    ? options.exchange(callback)
    : exchangeCode({ authUrl: options.authUrl, clientId: options.clientId, ...callback });
  // Handled: the provider's effect takes the outcome, but a concurrent render runs it a task later, after the browser
  // has reported a rejection that came first (a denied sign-in rejects at once) as unhandled.
  exchanged.catch(() => {});
  return exchanged;
}
