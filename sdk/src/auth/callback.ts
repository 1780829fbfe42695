import { OAuthError } from '../errors/index.js';

/**
 * Checks the parameters the authorization server redirected back with (query for the code flow, fragment for the
 * implicit flow): an `error` it sent, or a `state` other than the one sent (a forged callback), becomes an
 * {@link OAuthError} (`invalid_state` for the latter; status 302, the redirect that carried it).
 */
export function checkCallback(callbackUrl: string, params: URLSearchParams, expectedState: string): void {
  const fail = (error: string, description: string | null) => {
    throw new OAuthError({
      method: 'GET',
      url: callbackUrl,
      status: 302,
      body: description === null ? { error } : { error, error_description: description },
    });
  };
  const error = params.get('error');
  if (error !== null) fail(error, params.get('error_description'));
  if (params.get('state') !== expectedState) {
    fail('invalid_state', 'the callback’s state is not the one authorizeUrl sent');
  }
}
