/**
 * The addresses a shared server refuses as webhook targets: every block of the RFC 6890 special-purpose registries
 * that is not globally reachable (and IPv6 site-local, deprecated but still routed inside networks), at both ends,
 * and the public addresses beside them accepted.
 */
import { describe, expect, it } from 'vitest';
import { specialAddress } from '../../src/webhooks/targets.js';

describe('special-use addresses (RFC 6890)', () => {
  it.each([
    ['0.0.0.0', '0.255.255.255'],
    ['10.0.0.0', '10.255.255.255'],
    ['100.64.0.0', '100.127.255.255'],
    ['127.0.0.0', '127.255.255.255'],
    ['169.254.0.0', '169.254.255.255'],
    ['172.16.0.0', '172.31.255.255'],
    ['192.0.0.0', '192.0.0.255'], // IETF protocol assignments
    ['192.0.2.0', '192.0.2.255'], // TEST-NET-1
    ['192.168.0.0', '192.168.255.255'],
    ['198.18.0.0', '198.19.255.255'], // benchmarking
    ['198.51.100.0', '198.51.100.255'], // TEST-NET-2
    ['203.0.113.0', '203.0.113.255'], // TEST-NET-3
    ['224.0.0.0', '255.255.255.255'],
    ['::', '::1'],
    ['::ffff:10.0.0.1', '::ffff:192.0.2.1'],
    ['64:ff9b::', '64:ff9b::ffff:ffff'],
    ['100::', '100::ffff:ffff:ffff:ffff'], // discard-only
    ['2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
    ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], // documentation
    ['2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'], // documentation (RFC 9637)
    ['5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], // segment routing (RFC 9602)
    ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], // site-local
    ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ])('refuses %s to %s', (first, last) => {
    expect(specialAddress(first)).toBeDefined();
    expect(specialAddress(last)).toBeDefined();
  });

  it.each([
    '1.1.1.1',
    '192.0.1.255',
    '192.0.3.0',
    '198.17.255.255',
    '198.20.0.0',
    '198.51.99.255',
    '203.0.112.255',
    '223.255.255.255',
    '2001:200::1',
    '2001:db7:ffff::1',
    '2001:db9::1',
    '3ffe:ffff::1',
    '3fff:1000::1',
    '5eff:ffff::1',
    '5f01::1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ])('accepts the public address %s', (address) => {
    expect(specialAddress(address)).toBeUndefined();
  });
});
