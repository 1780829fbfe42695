/**
 * Which redirect URIs an authorization request may name: the registered ones, exactly, except that for a native
 * app a registered loopback IP redirect (`http://127.0.0.1/…`, `http://[::1]/…`) accepts any port. Native apps
 * and command lines receive the redirect on a port the system picks when they start (RFC 8252 §7.3), so no port
 * can be registered in advance. Any other client gets no such leeway: a browser page's or a web app's redirect
 * lands on a server with a fixed port, and any port there would hand its tokens to whatever local process a
 * crafted link names. Nor does `localhost`: a name can resolve elsewhere (RFC 8252 §8.3).
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

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
 * Whether `requested` is one of `registered`, or, with `anyLoopbackPort` (native apps), differs from a registered
 * loopback IP redirect by its port only.
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
