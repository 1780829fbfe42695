/**
 * The authorization service in the document comes from the contract (sdk/src/contract/oauth.ts): the token form
 * one schema per grant, the authorize page's query and form, the metadata; and the server's answers match them.
 */
import { basicAuthorization } from '@storefront-platform/sdk/internal';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ products: 1 });

// biome-ignore lint/suspicious/noExplicitAny: the document is read as the JSON it is
type Json = any;

async function document(): Promise<Json> {
  return (await fetch(`${server().baseUrl}/openapi.json`)).json();
}

function validator(doc: Json, name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...doc, $id: 'https://storefront.test/openapi.json' });
  return ajv.compile({ $ref: `https://storefront.test/openapi.json#/components/schemas/${name}` });
}

describe('the OAuth paths of the document', () => {
  it('take the token form from the contract: exactly one grant per grant_type, each one the server takes', async () => {
    const doc = await document();
    const body = doc.paths['/oauth/token'].post.requestBody.content['application/x-www-form-urlencoded'];
    expect(body.schema).toEqual({ $ref: '#/components/schemas/TokenRequest' });
    const grants = doc.components.schemas.TokenRequest.oneOf.map(
      (ref: Json) => doc.components.schemas[ref.$ref.split('/').pop()],
    );
    expect(grants.map((g: Json) => g.properties.grant_type.const)).toEqual([
      'client_credentials',
      'password',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'assertion',
      'authorization_code',
    ]);
    const isForm = validator(doc, 'TokenRequest');
    expect(isForm(body.example)).toBe(true);
    expect(isForm({ grant_type: 'client_credentials', username: 'x' })).toBe(false);
    const answer = await fetch(`${server().origin}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: basicAuthorization(server().credentials!),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(body.example),
    });
    expect(answer.status).toBe(200);
    expect(validator(doc, 'TokenResponse')(await answer.json())).toBe(true);
  });

  it('take the authorize query and form from the contract', async () => {
    const doc = await document();
    const authorize = doc.paths['/oauth/authorize'];
    const names = authorize.get.parameters.map((p: Json) => [p.name, p.required]);
    expect(names).toContainEqual(['response_type', true]);
    expect(names).toContainEqual(['client_id', true]);
    expect(names).toContainEqual(['state', false]);
    expect(authorize.post.requestBody.content['application/x-www-form-urlencoded'].schema).toEqual({
      $ref: '#/components/schemas/AuthorizeDecisionForm',
    });
  });

  it('describe the metadata as the contract types it, and the served metadata matches', async () => {
    const doc = await document();
    const metadata = doc.paths['/.well-known/oauth-authorization-server'].get.responses['200'];
    expect(metadata.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AuthorizationServerMetadata',
    });
    const served = await (await fetch(`${server().origin}/.well-known/oauth-authorization-server`)).json();
    const isMetadata = validator(doc, 'AuthorizationServerMetadata');
    expect(isMetadata(served), JSON.stringify(isMetadata.errors)).toBe(true);
  });
  it('answer a body that is not a form with a 400, an encoded form with the documented 415', async () => {
    const token = (await document()).paths['/oauth/token'].post.responses;
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${server().origin}/oauth/token`, { method: 'POST', headers, body });
    const json = await post({ 'Content-Type': 'application/json' }, '{"grant_type":"client_credentials"}');
    expect([json.status, (await json.json()).error]).toEqual([400, 'invalid_request']);
    const encoded = await post(
      { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' },
      'grant_type=client_credentials',
    );
    expect(encoded.status).toBe(415);
    expect(token['415'].headers['Accept-Encoding'].schema.const).toBe(encoded.headers.get('accept-encoding'));
    expect(token['415'].description).toMatch(/Content-Encoding/);
  });
});
