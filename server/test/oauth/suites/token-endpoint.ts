import { basicAuthorization } from '@storefront-platform/sdk/internal';
import { describe, expect, it } from 'vitest';
import { DEMO, expectOAuthError, type Harness, type MakeHarness, OTHER_APP, tokenOf } from '../fixture.js';

/** `POST /oauth/token` of a body as is: a form with the demo app's HTTP Basic credentials unless `headers` say otherwise. */
function postBody(h: Harness, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return h.fetch('/oauth/token', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicAuthorization(DEMO),
      ...headers,
    },
    body,
  });
}

export function tokenEndpointSuite(harness: MakeHarness): void {
  describe('token endpoint: request format', () => {
    it('answers a success per RFC 6749 §5.1 with the API fields and no-store headers', async () => {
      const { token } = await harness({ tokenTtl: 1234 });
      const response = await token({ grant_type: 'client_credentials', scope: 'admin' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('pragma')).toBe('no-cache');
      const body = await response.json();
      expect(body).toEqual({
        access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        token_type: 'Bearer',
        expires_in: 1234,
        scopes: 'admin',
        scope: 'admin',
      });
    });

    it('issues a different token every time', async () => {
      const { token } = await harness();
      const a = await tokenOf(await token({ grant_type: 'client_credentials' }));
      const b = await tokenOf(await token({ grant_type: 'client_credentials' }));
      expect(a).not.toBe(b);
    });

    it('stores only the hash of a token', async () => {
      const { token, context } = await harness();
      const issued = await tokenOf(await token({ grant_type: 'client_credentials' }));
      const rows = context.store.all('tokens');
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(issued);
    });

    it.each([
      ['application/json', JSON.stringify({ grant_type: 'client_credentials' })],
      ['text/plain', 'grant_type=client_credentials'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--x--',
      ],
    ])('refuses a %s body with invalid_request', async (type, body) => {
      const response = await postBody(await harness(), body, { 'content-type': type });
      expect(await expectOAuthError(response, 400, 'invalid_request')).toContain('x-www-form-urlencoded');
    });

    it('accepts a charset parameter on the form content type', async () => {
      const response = await postBody(await harness(), 'grant_type=client_credentials', {
        'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8',
      });
      expect(response.status).toBe(200);
    });

    it('refuses a body that is not UTF-8', async () => {
      const response = await postBody(
        await harness(),
        new Uint8Array([0x67, 0x72, 0x61, 0x6e, 0x74, 0x3d, 0xff, 0xfe]),
      );
      await expectOAuthError(response, 400, 'invalid_request');
    });

    it.each([
      ['over the endpoint limit', 20 * 1024],
      ['over the shell cap', 3 * 1024 * 1024],
    ])('answers 413 to a form body %s', async (_, size) => {
      const response = await postBody(await harness(), `grant_type=client_credentials&pad=${'x'.repeat(size)}`);
      expect(await expectOAuthError(response, 413, 'invalid_request')).toContain('exceeds');
    });

    it('keeps descriptions short whatever the client sends', async () => {
      const { token } = await harness();
      const description = await expectOAuthError(
        await token({ grant_type: 'g'.repeat(5000) }),
        400,
        'unsupported_grant_type',
      );
      expect(description.length).toBeLessThan(200);
    });

    it('refuses a repeated parameter with invalid_request', async () => {
      const response = await postBody(await harness(), 'grant_type=client_credentials&scope=public&scope=admin');
      expect(await expectOAuthError(response, 400, 'invalid_request')).toContain('"scope"');
    });

    it('treats a parameter without a value as omitted (RFC 6749 §3.1)', async () => {
      const { token } = await harness();
      const response = await token({ grant_type: 'client_credentials', scope: '' });
      expect((await response.json()).scopes).toBe('public');
    });

    it('requires grant_type', async () => {
      const { token } = await harness();
      expect(await expectOAuthError(await token({ scope: 'public' }), 400, 'invalid_request')).toContain('grant_type');
    });

    it.each(['refresh_token', 'urn:ietf:params:oauth:grant-type:device_code', 'constructor', '__proto__'])(
      'answers unsupported_grant_type for %s',
      async (grant_type) => {
        const { token } = await harness();
        await expectOAuthError(await token({ grant_type }), 400, 'unsupported_grant_type');
      },
    );

    it('answers 405 with Allow: POST to other methods', async () => {
      const { fetch } = await harness();
      const response = await fetch('/oauth/token');
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await response.json()).error).toBe('invalid_request');
    });

    it('leaves paths it does not own to the rest of the core', async () => {
      const { fetch } = await harness();
      expect((await fetch('/oauth/revoke', { method: 'POST' })).status).toBe(404);
      expect((await fetch('/oauth/token/', { method: 'POST' })).status).toBe(404);
      expect((await fetch('/v1/oauth/token', { method: 'POST' })).status).toBe(404);
    });
  });

  describe('token endpoint: client authentication', () => {
    it('decodes form-urlencoded Basic credentials (RFC 6749 Appendix B)', async () => {
      const { token } = await harness();
      // The secret holds ':', '+', '/', '=' and a space: each must survive the encoding.
      const response = await token({ grant_type: 'client_credentials' }, OTHER_APP);
      expect(response.status).toBe(200);
    });

    it('accepts client_id and client_secret in the body', async () => {
      const { token } = await harness();
      const response = await token(
        { grant_type: 'client_credentials', client_id: DEMO.clientId, client_secret: DEMO.clientSecret },
        false,
      );
      expect(response.status).toBe(200);
    });

    it('tolerates a body client_id that repeats the Basic one', async () => {
      const { token } = await harness();
      expect((await token({ grant_type: 'client_credentials', client_id: DEMO.clientId })).status).toBe(200);
    });

    it('refuses Basic credentials together with a body secret (invalid_request)', async () => {
      const { token } = await harness();
      const response = await token({
        grant_type: 'client_credentials',
        client_id: DEMO.clientId,
        client_secret: DEMO.clientSecret,
      });
      expect(await expectOAuthError(response, 400, 'invalid_request')).toContain('not both');
    });

    it('refuses a body client_id that differs from the Basic one', async () => {
      const { token } = await harness();
      await expectOAuthError(
        await token({ grant_type: 'client_credentials', client_id: OTHER_APP.clientId }),
        400,
        'invalid_request',
      );
    });

    it('refuses a body client_secret without client_id', async () => {
      const { token } = await harness();
      await expectOAuthError(
        await token({ grant_type: 'client_credentials', client_secret: DEMO.clientSecret }, false),
        400,
        'invalid_request',
      );
    });

    async function expectInvalidClient(response: Response) {
      await expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="storefront"');
    }

    it('answers 401 invalid_client with a Basic challenge for a wrong secret', async () => {
      const { token } = await harness();
      await expectInvalidClient(
        await token({ grant_type: 'client_credentials' }, { clientId: DEMO.clientId, clientSecret: 'x' }),
      );
      await expectInvalidClient(
        await token({ grant_type: 'client_credentials', client_id: DEMO.clientId, client_secret: 'nope' }, false),
      );
    });

    it('answers invalid_client for an unknown client', async () => {
      const { token } = await harness();
      await expectInvalidClient(
        await token({ grant_type: 'client_credentials' }, { clientId: 'nobody', clientSecret: 'x' }),
      );
    });

    it('answers invalid_client when the secret is one character off', async () => {
      const { token } = await harness();
      const secret = DEMO.clientSecret.slice(0, -1) + (DEMO.clientSecret.endsWith('A') ? 'B' : 'A');
      await expectInvalidClient(
        await token({ grant_type: 'client_credentials' }, { clientId: DEMO.clientId, clientSecret: secret }),
      );
    });

    it('answers invalid_client without any client authentication', async () => {
      const { token } = await harness();
      await expectInvalidClient(await token({ grant_type: 'client_credentials' }, false));
      await expectInvalidClient(await token({ grant_type: 'client_credentials', client_id: DEMO.clientId }, false));
    });

    it.each([
      ['another scheme', 'Bearer abc'],
      ['no colon', `Basic ${btoa('just-an-id')}`],
      ['broken base64', 'Basic a'],
      ['bad percent-encoding', `Basic ${btoa('%E0%A4%A:secret')}`],
    ])('answers invalid_client for an Authorization header with %s', async (_, authorization) => {
      await expectInvalidClient(await postBody(await harness(), 'grant_type=client_credentials', { authorization }));
    });
  });
}
