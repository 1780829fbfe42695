/**
 * RFC 8414 authorization server metadata, so that clients (openid-client's and oauth4webapi's discovery) learn the
 * endpoints and what they accept from the issuer alone.
 */
import type { AuthorizationServerMetadata } from '@storefront-platform/sdk/internal';
import type { Addresses, CoreResponse } from '../core/types.js';
import { JWT_BEARER } from './grants/jwt-bearer.js';
import { SCOPES } from './scopes.js';

/** RFC 8414 §3: the metadata's path, the issuer's own path (none here) appended. */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** The issuer identifier (RFC 8414 §2): the origin of the authorization service, also sent as `iss` (RFC 9207). */
export function issuerOf(addresses: Addresses): string {
  return addresses.authUrl;
}

/** The metadata document of the service at `addresses`. */
export function metadataOf(addresses: Addresses): AuthorizationServerMetadata {
  const issuer = issuerOf(addresses);
  return {
    issuer,
    authorization_endpoint: `${addresses.authUrl}/oauth/authorize`,
    token_endpoint: `${addresses.authUrl}/oauth/token`,
    grant_types_supported: ['authorization_code', 'implicit', 'password', 'client_credentials', JWT_BEARER],
    response_types_supported: ['code', 'token'],
    response_modes_supported: ['query', 'fragment'],
    code_challenge_methods_supported: ['S256'],
    // `none`: a public client (a native app, a browser page) names itself with client_id and proves the code with PKCE.
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    scopes_supported: [...SCOPES],
    authorization_response_iss_parameter_supported: true,
  };
}

/** `GET {issuer}/.well-known/oauth-authorization-server`; a 405 names its request by `requestId`, as errors do. */
export function metadataResponse(addresses: Addresses, method: string, requestId: string): CoreResponse {
  if (method !== 'GET' && method !== 'HEAD') {
    const message = 'The metadata accepts GET and HEAD requests only';
    return {
      status: 405,
      headers: { allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ _class: ['errors'], message, request_id: requestId }),
    };
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'max-age=300' },
    body: JSON.stringify(metadataOf(addresses)),
  };
}
