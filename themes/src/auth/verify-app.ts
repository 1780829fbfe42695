/**
 * `setup`'s and `login`'s check of the app it is given, before storing anything: one token request with the client
 * id and secret (the SDK's client credentials grant). The server answers `invalid_client` only when it does not
 * know the pair; any other answer, a token or a grant the app may not use, means it does.
 */
import {
  clientCredentials,
  HttpError,
  NetworkError,
  OAuthError,
  ServerError,
  TimeoutError,
} from '@storefront-platform/sdk';
import type { AppCredentials } from '../config/store.js';
import { CliError } from '../errors.js';
import { networkReason } from '../network-reason.js';
import { printable } from '../printable.js';
import { endpointsOf } from './connection.js';
import { SCOPE } from './sign-in.js';

/** How long the check may take. */
const TIMEOUT_MS = 15_000;

/**
 * Throws a one-line error, saying nothing was stored, unless the server accepts the app's id and secret.
 * `unchecked`: how to store it anyway, said when the server could not tell (setup's --no-verify; login has none,
 * since it needs the server to sign in).
 */
export async function verifyApp(app: AppCredentials, unchecked = ' (--no-verify stores it unchecked)'): Promise<void> {
  const { clientId, clientSecret } = app;
  const { authUrl } = endpointsOf(app);
  const grant = clientCredentials({ clientId, clientSecret, authUrl, scope: SCOPE, timeout: TIMEOUT_MS });
  const failure = await grant.credentials().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (failure === undefined) return;
  if (failure instanceof NetworkError || failure instanceof TimeoutError) {
    const cause = failure instanceof TimeoutError ? 'timed out' : networkReason(failure.cause);
    throw new CliError(`cannot reach the server at ${app.url} to check the app (${cause}): nothing stored${unchecked}`);
  }
  if (!(failure instanceof HttpError)) throw failure;
  if (failure.status >= 300 && failure.status < 400) {
    // The SDK follows no redirect of a grant: the secret goes to the token endpoint given, nowhere else.
    const location = printable(failure.headers.location ?? '(none)');
    throw new CliError(
      `the server at ${app.url} answered ${failure.status}, a redirect to ${location}, not followed (the secret goes nowhere else): nothing stored${unchecked}`,
    );
  }
  if (failure.status === 401 || (failure instanceof OAuthError && failure.error === 'invalid_client')) {
    throw new CliError(
      `the server at ${app.url} does not accept the client id ${JSON.stringify(clientId)} with this secret: nothing stored (copy both again from the platform)`,
    );
  }
  if (failure instanceof ServerError) {
    throw new CliError(
      `the server at ${app.url} could not check the app (${failure.status}): nothing stored${unchecked}`,
    );
  }
  // Taken: the token endpoint's refusal of something else than the client (a scope, say). Not a page that is no
  // token endpoint at all (a 404, HTML): a mistyped server address.
  if (failure instanceof OAuthError) return;
  throw new CliError(
    `${app.url} answered ${failure.status}, not as a Storefront token endpoint: is it the platform's address? nothing stored${unchecked}`,
  );
}
