/**
 * RFC 9110 §12.5.3 checked against a peer, not only our reading: `negotiator` (the parser behind Express's
 * `req.acceptsEncodings`) picks between gzip and identity for each header as our shell does. Where the two part,
 * the RFC leaves room and the difference is ours on purpose (listed below, each with why).
 */
import Negotiator from 'negotiator';
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../src/express/gzip.js';

const AGREED = [
  '',
  'gzip',
  'GZIP',
  'gzip, deflate, br',
  'identity',
  'br',
  'gzip;q=0',
  'gzip;q=0.1',
  'gzip;q=abc',
  'gzip;q=0.001, identity;q=1',
  'gzip;q=0.5, identity;q=0.5',
  'gzip;q=1, identity;q=0.9',
  '*',
  '*;q=0.5, identity;q=1',
  'deflate, *;q=0.1',
];

/** Header → what we send, where negotiator differs. */
const OURS_ON_PURPOSE: Record<string, 'gzip' | 'identity'> = {
  // §8.4.1.3: a recipient SHOULD consider x-gzip equivalent to gzip; negotiator knows only the token it is given.
  'x-gzip': 'gzip',
  // Equal weights are no preference (§12.4.2); negotiator breaks the tie by listing order, we by the smaller body.
  'identity, gzip': 'gzip',
  // Nothing acceptable: negotiator picks nothing (a 406); §12.1 lets us disregard the field and send identity.
  '*;q=0': 'identity',
  'identity;q=0': 'identity',
};

const negotiated = (header: string) =>
  new Negotiator({ headers: { 'accept-encoding': header } }).encodings(['gzip', 'identity'])[0];

describe('Accept-Encoding: our choice beside negotiator', () => {
  it.each(AGREED)('%j: the same choice', (header) => {
    expect(acceptsGzip(header) ? 'gzip' : 'identity').toBe(negotiated(header));
  });

  it.each(Object.entries(OURS_ON_PURPOSE))('%j: ours is %s, where negotiator differs', (header, ours) => {
    expect(acceptsGzip(header) ? 'gzip' : 'identity').toBe(ours);
    expect(negotiated(header)).not.toBe(ours);
  });
});
