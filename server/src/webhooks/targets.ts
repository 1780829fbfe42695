/**
 * Which addresses a webhook may be sent to (events.md, "Which addresses"). A server that listens on loopback only
 * is a developer's own: it delivers anywhere, `localhost` included. One that listens on another interface is
 * shared, and refuses loopback, private, link-local and the other addresses of the RFC 6890 special-purpose
 * registries that are not globally reachable (and IPv6 site-local), unless a host is allowed by name, so that
 * nobody can make it reach into its own network. Platform-neutral: the names a host resolves to are checked by the
 * Node sender (`node-sender.ts`) on the addresses it actually connects to.
 */

/** What targets are refused. */
export interface TargetPolicy {
  /** Refuse loopback, private, link-local and special-use addresses. */
  restricted: boolean;
  /** Hosts (names or literal addresses, as in a URL) allowed even so. */
  allow: readonly string[];
}

/** Why an IP address is special-use, or `undefined` for a public one. */
export function specialAddress(address: string): string | undefined {
  const v4 = parseIpv4(address);
  if (v4) return specialIpv4(v4);
  const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (!lower.includes(':')) return undefined;
  const mapped = /^(?:0*:)*:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  if (mapped) return specialAddress(mapped);
  const groups = expandIpv6(lower);
  if (!groups) return 'an address that cannot be read';
  if (groups.every((g) => g === 0)) return 'the unspecified address';
  // IPv4-mapped (`::ffff:a.b.c.d`, which URLs write in hex): the IPv4 address decides.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return specialAddress(`${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`);
  }
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return 'a loopback address';
  if ((groups[0]! & 0xfe00) === 0xfc00) return 'a private address';
  if ((groups[0]! & 0xffc0) === 0xfe80) return 'a link-local address';
  // Deprecated (RFC 3879), but networks that still route it keep it inside.
  if ((groups[0]! & 0xffc0) === 0xfec0) return 'a site-local address';
  if ((groups[0]! & 0xff00) === 0xff00) return 'a multicast address';
  // 2001:db8::/32 and 3fff::/20 (RFC 9637).
  if ((groups[0] === 0x2001 && groups[1] === 0xdb8) || (groups[0] === 0x3fff && groups[1]! < 0x1000)) {
    return 'a documentation address';
  }
  // 5f00::/16, segment routing identifiers (RFC 9602): not globally reachable.
  if (groups[0] === 0x5f00) return 'a segment routing address';
  if (groups[0] === 0x100 && groups.slice(1, 4).every((g) => g === 0)) return 'a discard-only address';
  // 2001::/23: Teredo (an IPv4 address inside), benchmarking, ORCHID; its few global blocks are no web servers.
  if (groups[0] === 0x2001 && groups[1]! < 0x200) return 'an IETF protocol assignment';
  // IPv4-compatible, NAT64 and 6to4 forms carry an IPv4 address that may be private: refuse them all.
  if (
    groups.slice(0, 6).every((g) => g === 0) ||
    (groups[0] === 0x64 && groups[1] === 0xff9b) ||
    groups[0] === 0x2002
  ) {
    return 'an address embedding an IPv4 one';
  }
  return undefined;
}

function specialIpv4([a, b, c]: number[]): string | undefined {
  if (a === 127) return 'a loopback address';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'a private address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 100 && b! >= 64 && b! <= 127) return 'a shared (carrier-grade NAT) address';
  if (a === 0) return 'a "this network" address';
  if (a === 192 && b === 0 && c === 0) return 'an IETF protocol assignment';
  if (
    (a === 192 && b === 0 && c === 2) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  ) {
    return 'a documentation address';
  }
  if (a === 198 && (b === 18 || b === 19)) return 'a benchmarking address';
  if (a! >= 224) return 'a multicast or reserved address';
  return undefined;
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

function expandIpv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const read = (part: string) =>
    part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : Number.NaN));
  const head = read(halves[0]!);
  const tail = halves.length === 2 ? read(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  return groups.some(Number.isNaN) ? undefined : groups;
}

/** Whether `host` (a URL's hostname) is allowed by name. */
export function allowedHost(host: string, policy: TargetPolicy): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  return policy.allow.some((allowed) => allowed.toLowerCase().replace(/^\[|\]$/g, '') === bare);
}

/**
 * Why `url` may not be a target under `policy`, as far as its text tells (a literal address, a `localhost`
 * name); `undefined` when it may, or when only resolving its name could tell.
 */
export function targetProblem(url: URL, policy: TargetPolicy | undefined): string | undefined {
  if (!policy?.restricted || allowedHost(url.hostname, policy)) return undefined;
  // `localhost.` is `localhost`: a name's trailing dot only says it is fully qualified.
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const special = host === 'localhost' || host.endsWith('.localhost') ? 'a loopback address' : specialAddress(host);
  return special && refusal(url.hostname, special);
}

/** The message of a refused target. */
export function refusal(host: string, special: string): string {
  return `${host} is ${special}, which this server does not send webhooks to, as it listens beyond loopback (allow it with --webhooks-allow ${host})`;
}
