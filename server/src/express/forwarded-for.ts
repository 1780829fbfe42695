/**
 * The client's address behind reverse proxies the operator trusts (`--trust-proxy`): failed logins are counted
 * per client address, and behind a proxy every request would otherwise come from the proxy's. Only a request
 * whose peer is a trusted proxy has its `X-Forwarded-For` read, from the right (each proxy appends the address
 * it received from): the first address that is not itself a trusted proxy is the client's. Anyone can send the
 * header, so the part left of that address (which the client wrote) is never believed.
 */

/** Which peers are trusted proxies: addresses, and `loopback` for 127.0.0.0/8 and ::1. */
export type TrustedProxies = readonly string[];

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The address without the IPv4-mapped IPv6 form Node reports on dual-stack sockets. */
const plain = (address: string) => MAPPED_IPV4.exec(address)?.[1] ?? address.toLowerCase();

function isTrusted(address: string, trusted: TrustedProxies): boolean {
  const ip = plain(address);
  for (const entry of trusted) {
    if (entry === 'loopback' ? ip === '::1' || ip.startsWith('127.') : plain(entry) === ip) return true;
  }
  return false;
}

/** Checks `--trust-proxy`'s entries: IP addresses or `loopback`. Throws a `TypeError` naming a bad one. */
export function checkTrustedProxies(trusted: TrustedProxies): void {
  for (const entry of trusted) {
    if (entry !== 'loopback' && !/^[0-9a-f:.]+$/i.test(entry)) {
      throw new TypeError(`trustProxy takes IP addresses or "loopback", got "${entry}"`);
    }
  }
}

/** The client's address: the peer's, or behind trusted proxies the one they forwarded. */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: TrustedProxies,
): string | undefined {
  if (!peer || trusted.length === 0 || !isTrusted(peer, trusted) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrusted(hops[i]!, trusted)) return hops[i];
  }
  return hops[0] ?? peer;
}
