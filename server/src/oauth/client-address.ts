/**
 * The part of a client's address that failed logins are counted by. Platform-neutral (no `node:net`): the
 * same core runs inside MSW in a browser.
 */

/** The key of requests that carry no address: MSW's, which all come from the test or the page itself. */
export const NO_ADDRESS = 'local';

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/**
 * An IPv4 address as it is, also when Node reports it IPv4-mapped (`::ffff:192.0.2.1`); an IPv6 address by
 * its /64 prefix, since one host usually holds a whole /64 and could otherwise step through its addresses;
 * {@link NO_ADDRESS} without one. Anything else is kept as it came (it still tells clients apart).
 */
export function addressKey(address: string | undefined): string {
  if (!address) return NO_ADDRESS;
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped) return mapped[1]!;
  if (IPV4.test(address)) return address;
  return ipv6Prefix(address) ?? address;
}

/** `2001:db8:0:1::/64` for any address of that /64; `undefined` when `address` is not IPv6. */
function ipv6Prefix(address: string): string | undefined {
  const halves = address.split('%', 1)[0]!.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  // A dotted IPv4 tail stands for the last two groups.
  const width = (list: string[]) => list.reduce((n, g) => n + (IPV4.test(g) ? 2 : 1), 0);
  const missing = 8 - width(head) - width(tail);
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<string>(Math.max(0, missing)).fill('0'), ...tail];
  const prefix = all.slice(0, 4);
  if (!prefix.every((g) => HEX_GROUP.test(g))) return undefined;
  return `${prefix.map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}
