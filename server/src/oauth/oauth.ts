import type { CoreContext, CoreRequest, CoreResponse } from '../core/types.js';
import { handleAuthorizeRequest } from './authorize-endpoint.js';
import { createLoginGuard } from './login-guard.js';
import { METADATA_PATH, metadataResponse } from './metadata.js';
import { handleTokenRequest } from './token-endpoint.js';

/** The authorization service as one part of the server core. */
export interface OAuthService {
  /**
   * Answers the service's own paths (`/oauth/token`, `/oauth/authorize` under `auth_url`, its RFC 8414 metadata);
   * `undefined` for any other. `requestId` (the answer's `X-Request-Id`) goes in the error bodies (the token
   * endpoint's, the metadata's) and on the authorization endpoint's error pages.
   */
  handle(request: CoreRequest, requestId: string): Promise<CoreResponse | undefined>;
}

/** The authorization service over a context's store, clock and addresses. */
export function createOAuth(context: CoreContext): OAuthService {
  const base = new URL(context.addresses.authUrl).pathname.replace(/\/+$/, '');
  const tokenPath = `${base}/oauth/token`;
  const authorizePath = `${base}/oauth/authorize`;
  const metadataPath = `${METADATA_PATH}${base}`;
  const logins = createLoginGuard(context);
  return {
    async handle(request, requestId) {
      const path = request.url.pathname;
      if (path === tokenPath) return handleTokenRequest(context, request, logins, requestId);
      if (path === authorizePath) return handleAuthorizeRequest(context, request, logins, requestId);
      if (path === metadataPath) return metadataResponse(context.addresses, request.method, requestId);
      return undefined;
    },
  };
}
