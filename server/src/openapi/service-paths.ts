/**
 * The paths of the document outside the resource API: the authorization service's token and authorize endpoints,
 * the relation pages and theme files. Their forms and bodies are the contract's (sdk/src/contract/oauth.ts: the
 * token endpoint's and authorize page's forms, the metadata; hal.ts: the token and the OAuth error body).
 */
import type { Addresses } from '../core/types.js';
import { assetFileName, themeFileName } from './bounds.js';
import { CONTRACT } from './contract.js';
import type { Schema } from './contract-types.js';
import { TOKEN_FORM_EXAMPLE } from './examples.js';
import { schemaRef } from './hal-schemas.js';
import { VALIDATORS } from './responses.js';

const oauthError = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers,
  content: { 'application/json': { schema: schemaRef('OAuthErrorBody') } },
});

const html = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers,
  content: { 'text/html': { schema: { type: 'string' } } },
});

const REDIRECT = {
  description:
    'Back to the client’s redirect URI with `code` and `state` (or, for `token`, the token in the fragment), or with `error`.',
  headers: { Location: { $ref: '#/components/headers/Location' } },
};

const RETRY_AFTER = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };

/**
 * A form's 415 is only for a content-encoded one (server/src/core/body-encoding.ts): a body of another type is a
 * 400 `invalid_request`, as RFC 6749 wants, so the description must not promise a 415 for it.
 */
const ENCODED_FORM = 'The form is content-encoded (`Content-Encoding` other than `identity`): send it unencoded.';
const IDENTITY_ONLY = {
  'Accept-Encoding': {
    description: '`identity`: the only coding the endpoint reads (RFC 9110 §12.5.3).',
    required: true,
    schema: { const: 'identity' },
  },
};

/** The authorize page's query parameters, from the contract's `AuthorizeQuery`. */
function authorizeQuery(): object[] {
  const query = CONTRACT.schemas.AuthorizeQuery as { properties: Record<string, Schema>; required: string[] };
  return Object.entries(query.properties).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    required: query.required.includes(name),
    ...(description ? { description } : {}),
    schema,
  }));
}

/** The authorization service's paths (under `{auth_url}`). */
export function oauthPaths(): Record<string, unknown> {
  return {
    '/oauth/token': {
      post: {
        operationId: 'requestToken',
        tags: ['OAuth'],
        summary: 'Issue an access token (every grant).',
        description:
          'The token endpoint (spec §5.1): one form per grant. The client authenticates with HTTP Basic, or with `client_id` and `client_secret` in the form (never both); public clients send only `client_id`.',
        security: [{ clientBasic: [] }, {}],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: schemaRef('TokenRequest'), example: TOKEN_FORM_EXAMPLE },
          },
        },
        responses: {
          '200': {
            description: 'The token (spec §5.2), never cached.',
            headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' } },
            content: { 'application/json': { schema: schemaRef('TokenResponse') } },
          },
          '400': oauthError(
            'A bad or missing parameter, a refused grant or scope, a body that is not a form (RFC 6749 §5.2).',
          ),
          '401': oauthError('`invalid_client`: the client failed to authenticate.', {
            'WWW-Authenticate': { $ref: '#/components/headers/BasicChallenge' },
          }),
          '413': oauthError('The form is too large.'),
          '415': oauthError(ENCODED_FORM, IDENTITY_ONLY),
          '429': oauthError('`slow_down`: too many failed logins; retry after `Retry-After`.', RETRY_AFTER),
          '500': oauthError('`server_error`: a failure of the service’s own.'),
          '503': oauthError('The store could not be reached; retry after `Retry-After`.', RETRY_AFTER),
        },
      },
    },
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'authorizationServerMetadata',
        tags: ['OAuth'],
        summary: 'The authorization server’s metadata (RFC 8414): its endpoints and what they accept.',
        description: 'What discovery clients (openid-client, oauth4webapi) read first.',
        security: [],
        responses: {
          '200': {
            description: 'The metadata, cacheable for five minutes.',
            content: { 'application/json': { schema: schemaRef('AuthorizationServerMetadata') } },
          },
        },
      },
    },
    '/oauth/authorize': {
      get: {
        operationId: 'authorizePage',
        tags: ['OAuth'],
        summary: 'The login and consent page of the authorization code and implicit grants.',
        description:
          'An HTML form for people; a request that cannot be redirected back is answered here, others at the redirect URI.',
        security: [],
        parameters: authorizeQuery(),
        responses: {
          '200': html('The login and consent form.'),
          '302': REDIRECT,
          '303': REDIRECT,
          '400': html('A request that cannot be redirected back (unknown client, unregistered redirect URI).'),
          '503': html('The store could not be reached.', RETRY_AFTER),
        },
      },
      post: {
        operationId: 'authorizeDecision',
        tags: ['OAuth'],
        summary: 'The form’s answer: log in and approve, or deny.',
        description: 'Posted by the login and consent page; answered with a redirect to the client, or the page again.',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: schemaRef('AuthorizeDecisionForm') },
          },
        },
        responses: {
          '200': html('The form again, saying what went wrong (a wrong password).'),
          '302': REDIRECT,
          '303': REDIRECT,
          '400': html('A request that cannot be redirected back (a body that is not a form among them).'),
          '413': html('The form is too large.'),
          '415': html(ENCODED_FORM, IDENTITY_ONLY),
          '429': html('Too many failed logins; retry after `Retry-After`.', RETRY_AFTER),
          '503': html('The store could not be reached.', RETRY_AFTER),
        },
      },
    },
  };
}

/** A relation page in JSON: the relation registry's entry. */
export const RELATION_PAGE: Schema = {
  type: 'object',
  description: 'What a relation does: the relation registry’s entry (the same as the HTML page).',
  properties: {
    _class: { const: ['relation'] },
    name: { type: 'string', description: 'The relation’s full name, e.g. `svc:update_theme`.' },
    method: { enum: ['get', 'put', 'post', 'delete'] },
    title: { type: 'string' },
    type: { type: 'string', description: 'Media type of the target when it is not JSON.' },
    summary: { type: 'string' },
    target: { type: 'string' },
    payload: { type: 'string' },
    example: { type: 'string' },
    _links: {
      type: 'object',
      properties: { self: schemaRef('Link') },
      required: ['self'],
      additionalProperties: false,
    },
  },
  required: ['_class', 'name', 'method', 'summary', 'target', 'example', '_links'],
  additionalProperties: false,
};

const notFound = { description: 'No such page.', content: { 'application/json': { schema: schemaRef('ErrorBody') } } };
const notModified = { description: 'Unchanged since the validators sent.', headers: VALIDATORS };
const files = (description: string) => ({
  description,
  headers: VALIDATORS,
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
});
const rest = (name: string, description: string, schema: Schema = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

/** The relation pages, theme files and previews, at their addresses relative to the origin. */
export function documentPaths(addresses: Addresses): Record<string, unknown> {
  const statics = new URL(addresses.staticUrl).pathname.replace(/\/+$/, '');
  const theme = rest('theme_id', 'The theme.');
  const key = rest('key', 'The theme’s preview key, known only from its `svc:theme_preview` link.');
  const preview = (extra: object[], description: string) => ({
    get: {
      operationId: extra.length ? 'previewFile' : 'previewPage',
      tags: ['Themes'],
      summary: description,
      description:
        'Open to whoever holds the preview key; always revalidated. The page is the theme’s `layout.html` with a `<base href>` of the preview folder, so that relative references resolve to the theme’s files.',
      security: [],
      parameters: [theme, key, ...extra],
      responses: { '200': files('The page or file.'), '304': notModified, '404': notFound },
    },
  });
  return {
    '/rels/{rel}': {
      get: {
        operationId: 'describeRelation',
        tags: ['Relations'],
        summary: 'What a `svc:` relation does: HTML for people, JSON on `Accept: application/json`.',
        description: 'Where the root’s `svc:` curie expands to: one page per relation, from the relation registry.',
        security: [],
        parameters: [rest('rel', 'The relation’s name without its `svc:` prefix.')],
        responses: {
          '200': {
            description: 'The relation’s page.',
            headers: VALIDATORS,
            content: {
              'text/html': { schema: { type: 'string' } },
              'application/json': { schema: schemaRef('RelationPage') },
            },
          },
          '304': notModified,
          '404': notFound,
        },
      },
    },
    [`${statics}/themes/{theme_id}/assets/{digest}/{file_name}`]: {
      get: {
        operationId: 'getAssetFile',
        tags: ['Themes'],
        summary: 'A theme asset’s bytes (its `file` link): long-lived cache, `nosniff`, SVG sandboxed.',
        description:
          'The address changes with the bytes (`digest`), so the file is cached for a year. A name in a folder is sent with its `/` encoded (`images%2Flogo.png`), as generated clients send it, or as it is.',
        security: [],
        parameters: [
          theme,
          rest('digest', 'The file’s MD5 digest.'),
          rest('file_name', 'The asset’s file name; a `/` in it may be sent encoded, as `%2F`.', {
            type: 'string',
            pattern: assetFileName().pattern,
          }),
        ],
        responses: { '200': files('The file, with its media type.'), '304': notModified, '404': notFound },
      },
    },
    // The folder's address, with its `/`: the `svc:theme_preview` link, and the `<base href>` of the page.
    [`${statics}/themes/{theme_id}/preview/{key}/`]: preview(
      [],
      'The theme’s preview: its `layout.html` (the `svc:theme_preview` link).',
    ),
    [`${statics}/themes/{theme_id}/preview/{key}/{file_name}`]: preview(
      [
        rest(
          'file_name',
          'A template or asset of the theme by its file name, as `layout.html` refers to it; a `/` in it may be sent encoded, as `%2F`.',
          themeFileName(),
        ),
      ],
      'A file of the theme’s preview.',
    ),
  };
}
