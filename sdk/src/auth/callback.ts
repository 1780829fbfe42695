import { OAuthError } from '../errors/index.js';

/**
 * The {@link OAuthError} of a callback that carries `error` (status 302, the redirect that carried it). No request
 * failed, so its message says what happened to the sign-in rather than "GET … failed"; its `url` is the redirect
 * URI's, without the callback's parameters (the `state` and the code are not the error's to show).
 */
export function callbackError(callbackUrl: string, error: string, description: string | null): OAuthError {
  const refused = new OAuthError({
    method: 'GET',
    url: callbackUrl.replace(/[?#].*/, ''),
    status: 302,
    body: { error, error_description: description ?? undefined },
  });
  refused.message = `Sign-in failed: ${description ?? error}`;
  return refused;
}

/**
 * Checks the parameters the authorization server redirected back with (query for the code flow, fragment for the
 * implicit flow): an `error` it sent, or a `state` other than the one sent (a forged callback), becomes an
 * {@link OAuthError} (`invalid_state` for the latter; status 302, the redirect that carried it).
 */
export function checkCallback(callbackUrl: string, params: URLSearchParams, expectedState: string): void {
  const error = params.get('error');
  if (error !== null) throw callbackError(callbackUrl, error, params.get('error_description'));
  if (params.get('state') !== expectedState) {
    throw callbackError(callbackUrl, 'invalid_state', 'the callback’s state is not the one authorizeUrl sent');
  }
}
