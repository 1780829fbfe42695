/** The one way log lines name a request: secrets in its query redacted, whatever their case or separator. */
import { describe, expect, it } from 'vitest';
import { requestLine } from '../src/shared/request-line.js';

describe('requestLine', () => {
  it('names a parsed URL by its path and query, the secrets redacted', () => {
    const url = new URL('http://127.0.0.1:4000/v1/shops.jsonp?callback=cb;ACCESS_TOKEN=t1&page=2');
    expect(requestLine('GET', url)).toBe('GET /v1/shops.jsonp?callback=cb;ACCESS_TOKEN=[REDACTED]&page=2');
  });

  it('redacts a request target as sent', () => {
    expect(requestLine('POST', '/oauth/authorize?Code=c&state=s')).toBe(
      'POST /oauth/authorize?Code=[REDACTED]&state=s',
    );
  });
});
