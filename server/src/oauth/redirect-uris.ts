/**
 * Which redirect URIs an authorization request may name: the registered ones, exactly, except that in the code
 * flow of a native app a registered loopback redirect (`http://127.0.0.1/…`, `http://[::1]/…`,
 * `http://localhost/…`) accepts any port. Native apps and command lines receive the redirect on a port the system
 * picks when they start (RFC 8252 §7.3), and dev servers (Vite's `http://localhost:5173`) on one their tool picks,
 * so no port can be registered in advance. That leeway is safe only because such a client must use PKCE: a code
 * that another local process on that port collects is useless without the verifier (RFC 8252 §8.1). `localhost`
 * counts although RFC 8252 §8.3 prefers IP literals, since dev servers print it, and PKCE covers the name resolving
 * elsewhere the same way. The implicit grant and every other kind of client get no leeway: a token in a redirect
 * is usable by whoever receives it.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * `uri` without its port when it is a loopback IP redirect written in canonical form; `undefined` otherwise.
 * Canonical only, so that a path that merely normalises to the registered one (`/x/../callback`) is refused as
 * an exact comparison would refuse it.
 */
function portless(uri: string): string | undefined {
  if (!URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  if (url.href !== uri || url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  url.port = '';
  return url.href;
}

/**
 * Whether `requested` is one of `registered`, or, with `anyLoopbackPort` (the code flow of native apps), differs
 * from a registered loopback redirect by its port only.
 */
export function isRegisteredRedirectUri(
  registered: readonly string[],
  requested: string,
  anyLoopbackPort: boolean,
): boolean {
  if (registered.includes(requested)) return true;
  if (!anyLoopbackPort) return false;
  const wanted = portless(requested);
  return wanted !== undefined && registered.some((uri) => portless(uri) === wanted);
}
