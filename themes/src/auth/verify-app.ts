/**
 * `setup`'s and `login`'s check of the app it is given, before storing anything: one token request with the client id and
 * secret (client credentials grant, HTTP Basic as RFC 6749 §2.3.1 encodes it). The server answers `invalid_client`
 * only when it does not know the pair; any other answer, a token or a grant the app may not use, means it does.
 */

import type { AppCredentials } from '../config/store.js';
import { CliError } from '../errors.js';
import { networkReason } from '../network-reason.js';
import { printable } from '../printable.js';
import { VERSION } from '../version.js';
import { endpointsOf } from './connection.js';
import { SCOPE } from './sign-in.js';

/** How long the check may take. */
const TIMEOUT_MS = 15_000;

const formEncode = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');

/**
 * Throws a one-line error, saying nothing was stored, unless the server accepts the app's id and secret.
 * `unchecked`: how to store it anyway, said when the server could not tell (setup's --no-verify; login has none,
 * since it needs the server to sign in).
 */
export async function verifyApp(app: AppCredentials, unchecked = ' (--no-verify stores it unchecked)'): Promise<void> {
  const basic = Buffer.from(`${formEncode(app.clientId)}:${formEncode(app.clientSecret)}`).toString('base64');
  let response: Response;
  try {
    response = await fetch(new URL('/oauth/token', endpointsOf(app).authUrl), {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': `storefront-themes/${VERSION}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPE }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      // The secret goes to the token endpoint given, never to where a redirect points (as the SDK's token requests).
      redirect: 'manual',
    });
  } catch (error) {
    const cause = networkReason(error);
    throw new CliError(`cannot reach the server at ${app.url} to check the app (${cause}): nothing stored${unchecked}`);
  }
  if (response.status >= 300 && response.status < 400) {
    const location = printable(response.headers.get('location') ?? '(none)');
    throw new CliError(
      `the server at ${app.url} answered ${response.status}, a redirect to ${location}, not followed (the secret goes nowhere else): nothing stored${unchecked}`,
    );
  }
  const answer = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  if (response.status === 401 || answer?.error === 'invalid_client') {
    throw new CliError(
      `the server at ${app.url} does not accept the client id ${JSON.stringify(app.clientId)} with this secret: nothing stored (copy both again from the platform)`,
    );
  }
  if (response.status >= 500) {
    throw new CliError(
      `the server at ${app.url} could not check the app (${response.status}): nothing stored${unchecked}`,
    );
  }
  // Taken: a token (2xx), or the token endpoint's refusal of something else than the client (a scope, say). Not a
  // page that is no token endpoint at all (a 404, HTML): a mistyped server address.
  if (!response.ok && typeof answer?.error !== 'string') {
    throw new CliError(
      `${app.url} answered ${response.status}, not as a Storefront token endpoint: is it the platform's address? nothing stored${unchecked}`,
    );
  }
}
