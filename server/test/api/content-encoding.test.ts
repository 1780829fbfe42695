/**
 * Request bodies are read as sent: one with a `Content-Encoding` (gzip, br, …) is refused with a 415 that
 * says which coding is accepted (RFC 9110 §15.5.16), not parsed as if it were plain and refused for its syntax.
 * Checked on the core's fetch form, the one MSW serves (the contract suite holds Express to the same answers).
 */
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SeededCore, seededCore } from '../helpers/seeded-core.js';

const origin = 'https://api.example';
let core: SeededCore['core'];
let token: string;
let credentials: SeededCore['credentials'];
let templateUrl: string;

beforeAll(async () => {
  ({ core, token, credentials } = await seededCore(origin, {
    products: 6,
    orders: 2,
    clientSecret: 'secret',
    password: 'pass',
  }));
  const theme = await (await send('/v1/shops/1/theme.json', { method: 'GET' })).json();
  templateUrl = theme._embedded.templates[1]._links.self.href;
});

function send(path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Response> {
  const url = path.startsWith('http') ? path : `${origin}${path}`;
  return core.fetch(new Request(url, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } }));
}

const json = { 'content-type': 'application/json' };
const body = JSON.stringify({ body: '<p>encoded</p>' });

describe('a JSON body with a Content-Encoding', () => {
  it.each(['gzip', 'br', 'deflate, gzip', 'x-custom'])(
    '%s: 415 with the error body and Accept-Encoding',
    async (coding) => {
      const response = await send(templateUrl, {
        method: 'PUT',
        headers: { ...json, 'content-encoding': coding },
        body: gzipSync(body),
      });
      expect(response.status).toBe(415);
      expect(response.headers.get('accept-encoding')).toBe('identity');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const error = await response.json();
      expect(error).toEqual({
        _class: ['errors'],
        message: expect.stringContaining('Content-Encoding'),
        request_id: response.headers.get('x-request-id'),
      });
    },
  );

  it('identity (or an empty value) is no coding at all: the body is read', async () => {
    for (const coding of ['identity', 'Identity', '']) {
      const response = await send(templateUrl, {
        method: 'PUT',
        headers: { ...json, 'content-encoding': coding },
        body,
      });
      expect([coding, response.status]).toEqual([coding, 200]);
    }
  });
});

describe('the token endpoint', () => {
  it('answers an encoded form with 415 invalid_request', async () => {
    const response = await core.fetch(
      new Request(`${origin}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-encoding': 'gzip',
          authorization: `Basic ${btoa(`${credentials.clientId}:secret`)}`,
        },
        body: gzipSync('grant_type=client_credentials'),
      }),
    );
    expect(response.status).toBe(415);
    expect(response.headers.get('accept-encoding')).toBe('identity');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining('Content-Encoding'),
      request_id: response.headers.get('x-request-id'),
    });
  });
});

describe('the authorization form', () => {
  it('answers an encoded form with a 415 page', async () => {
    const response = await core.fetch(
      new Request(`${origin}/oauth/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
        body: gzipSync(`client_id=${credentials.clientId}`),
      }),
    );
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('accept-encoding')).toBe('identity');
    expect(await response.text()).toContain('Unsupported Content-Encoding');
  });
});
