/**
 * Why a command that reads another API failed, in one line for a person: a refused sign-in names the credential
 * to check (the app's, or the user's), a refused token says so, anything else is the error's own message (the
 * SDK's messages hold no secret).
 */
import { OAuthError, StorefrontError, UnauthorizedError } from '@storefront-platform/sdk';
import type { RemoteApi } from './remote-api.js';

/** One line saying what went wrong reading `remote`, and what to check. */
export function describeRemoteFailure(error: unknown, remote: Pick<RemoteApi, 'url' | 'login'>): string {
  if (error instanceof OAuthError) {
    const why = error.errorDescription ? `${error.error}: ${error.errorDescription}` : error.error;
    if (error.error === 'invalid_client' || error.error === 'unauthorized_client') {
      return `${remote.url} refused the app's credentials (${why}): check --client-id and STOREFRONT_REMOTE_CLIENT_SECRET`;
    }
    if (error.error === 'invalid_grant' && remote.login !== undefined) {
      return `${remote.url} refused the sign-in of ${remote.login} (${why}): check --login and STOREFRONT_REMOTE_PASSWORD`;
    }
    return `${remote.url} refused the sign-in (${why})`;
  }
  if (error instanceof UnauthorizedError) {
    return `${remote.url} refused the access token it issued (401: ${error.message}): check the app's scopes there`;
  }
  if (error instanceof StorefrontError) return `${remote.url}: ${error.message}`;
  return (error as Error)?.message ?? String(error);
}
