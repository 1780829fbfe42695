import { decodeBase64Url } from '@storefront-platform/sdk/internal';
import type { CoreRequest } from '../core/types.js';
import type { AppRow, Store } from '../store/types.js';
import { OAuthError } from './errors.js';
import { timingSafeEqual } from './secrets.js';

/** Client credentials as presented, not yet checked. */
export interface ClientCredentials {
  clientId: string;
  /** Absent when the client only named itself (`client_id` in the body without a secret). */
  clientSecret?: string;
}

const BASIC = /^Basic +([A-Za-z0-9+/]+=*) *$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The registered app with this client id (an indexed lookup). */
export function findApp(store: Store, clientId: string): AppRow | undefined {
  return store.where('apps', 'client_id', clientId)[0];
}

/**
 * The client credentials of a token request: HTTP Basic or `client_id`/`client_secret` in the body, never both
 * (RFC 6749 §2.3.1). A `client_id` in the body equal to the Basic one is tolerated: it names the client, it does
 * not authenticate it a second time. `undefined` when the request carries no client credentials at all.
 */
export function readClientCredentials(
  request: CoreRequest,
  params: Map<string, string>,
): ClientCredentials | undefined {
  const header = request.headers.get('authorization');
  const bodyId = params.get('client_id');
  const bodySecret = params.get('client_secret');
  if (header) {
    const basic = parseBasic(header);
    if (bodySecret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'Send the client credentials either with HTTP Basic or in the request body, not both',
      );
    }
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw new OAuthError(
        'invalid_request',
        'The client_id in the body differs from the one in the Authorization header',
      );
    }
    return basic;
  }
  if (bodyId === undefined) {
    if (bodySecret !== undefined) throw new OAuthError('invalid_request', 'client_secret was sent without client_id');
    return undefined;
  }
  return bodySecret === undefined ? { clientId: bodyId } : { clientId: bodyId, clientSecret: bodySecret };
}

/** The app these credentials authenticate; anything else is `invalid_client`. The secret is compared in constant time. */
export function authenticateClient(store: Store, credentials: ClientCredentials | undefined): AppRow {
  if (!credentials) throw new OAuthError('invalid_client', 'Client authentication is required');
  if (credentials.clientSecret === undefined) {
    throw new OAuthError('invalid_client', 'Client authentication requires the client secret');
  }
  const app = findApp(store, credentials.clientId);
  // Compare against something even for an unknown client, so that timing does not tell which client ids exist.
  const matches = timingSafeEqual(credentials.clientSecret, app?.client_secret ?? credentials.clientId);
  if (!app || !matches) throw new OAuthError('invalid_client', 'Client authentication failed');
  return app;
}

/** RFC 6749 Appendix B: the id and secret are form-urlencoded before they are joined and base64-encoded. */
function parseBasic(header: string): Required<ClientCredentials> {
  const match = BASIC.exec(header);
  if (!match) {
    throw new OAuthError(
      'invalid_client',
      'Unsupported client authentication: use HTTP Basic or client_id/client_secret in the body',
    );
  }
  const malformed = () =>
    new OAuthError('invalid_client', 'The Authorization header holds malformed Basic credentials');
  const bytes = decodeBase64Url(match[1]!);
  if (!bytes) throw malformed();
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    throw malformed();
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) throw malformed();
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw malformed();
  }
}

function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}
