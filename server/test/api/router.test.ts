import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error.js';
import type { Route } from '../../src/http/route.js';
import { Router } from '../../src/http/router.js';

const handle = () => ({ status: 204 });
const routes: Route[] = [
  { method: 'GET', path: '/', scope: 'public', handle },
  { method: 'GET', path: '/shops/:id', scope: 'public', handle },
  { method: 'PUT', path: '/shops/:id', scope: 'admin', handle },
  { method: 'POST', path: '/uploads', scope: 'admin', handle },
  { method: 'GET', path: '/files/*path', scope: null, handle },
];

describe('Router', () => {
  const api = new Router(routes, true);

  it('makes .json optional and reads .jsonp as JSONP, for every route at once', () => {
    for (const path of ['/shops/7', '/shops/7.json', '/shops/7.jsonp']) {
      const match = api.match('GET', path);
      expect(match?.route).toBe(routes[1]);
      expect(match && 'params' in match ? match.params : undefined).toEqual({ id: '7' });
      expect(match && 'jsonp' in match ? match.jsonp : undefined).toBe(path.endsWith('.jsonp'));
    }
    for (const path of ['', '/', '.json', '/.json']) expect(api.match('GET', path)?.route).toBe(routes[0]);
  });

  it('serves HEAD with the GET route', () => {
    expect(api.match('HEAD', '/shops/7')?.route).toBe(routes[1]);
  });

  it('lists the allowed methods for a known path and the wrong method', () => {
    expect(api.match('DELETE', '/shops/7')).toEqual({ allow: 'GET, HEAD, PUT, OPTIONS' });
    expect(api.match('GET', '/uploads')).toEqual({ allow: 'POST, OPTIONS' });
    expect(api.match('PUT', '/shops/7.jsonp')).toEqual({ allow: 'GET, HEAD' });
  });

  it('finds nothing for unknown paths, and no JSONP form of a path without GET', () => {
    expect(api.match('GET', '/shops')).toBeUndefined();
    expect(api.match('GET', '/shops/7/more')).toBeUndefined();
    expect(api.match('POST', '/uploads.jsonp')).toBeUndefined();
  });

  it('decodes parameters, and refuses malformed percent-encoding with a 400', () => {
    const match = api.match('GET', '/shops/a%20b');
    expect(match && 'params' in match ? match.params.id : undefined).toBe('a b');
    expect(() => api.match('GET', '/shops/%E0%A4%A')).toThrow(HttpError);
  });

  it('hands a trailing *rest parameter over undecoded but for %2F, and leaves suffixes alone without them', () => {
    const files = new Router(routes, false);
    const match = files.match('GET', '/files/a/b%2Fc%2fd%20e%2E.json');
    // An encoded slash is the `/` a generated client sends for a file name in a folder; nothing else is decoded.
    expect(match && 'params' in match ? match.params.path : undefined).toBe('a/b/c/d%20e%2E.json');
  });
});
