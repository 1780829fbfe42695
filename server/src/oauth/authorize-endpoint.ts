import type { CoreContext, CoreRequest, CoreResponse } from '../core/types.js';
import { diskFailureLine, diskFailureOf } from '../http/disk-failure.js';
import { requestLine } from '../shared/request-line.js';
import { consentPage, errorPage } from './authorize-page.js';
import {
  AuthorizeError,
  type AuthorizeRequest,
  parseAuthorizeRequest,
  type RedirectTarget,
} from './authorize-request.js';
import { issueCode } from './codes.js';
import { OAuthError } from './errors.js';
import { htmlResponse } from './html.js';
import { type LoginGuard, throttledMessage } from './login-guard.js';
import { issuerOf } from './metadata.js';
import { readForm } from './params.js';
import { UNAVAILABLE } from './responses.js';
import { assertScopesAllowed, formatScopes } from './scopes.js';
import { issueToken } from './tokens.js';

/**
 * `{auth_url}/oauth/authorize`: GET shows the login + consent page for a validated request; POST (the form)
 * checks the user's credentials and redirects back to the client with a code, a token (implicit grant) or an error.
 * Its error pages name the request by `requestId` (the answer's `X-Request-Id`).
 */
export async function handleAuthorizeRequest(
  context: CoreContext,
  request: CoreRequest,
  logins: LoginGuard,
  requestId: string,
): Promise<CoreResponse> {
  switch (request.method) {
    case 'GET':
    // A HEAD gets the page too: the transport leaves the body out once it has the headers (length, encoding).
    case 'HEAD':
      return show(context, request.url.searchParams, requestId);
    case 'POST':
      return submit(context, request, logins, requestId);
    default:
      return htmlResponse(405, errorPage('This page accepts GET and POST requests only.', requestId), {
        allow: 'GET, HEAD, POST',
      });
  }
}

function show(context: CoreContext, params: URLSearchParams, requestId: string): CoreResponse {
  try {
    return htmlResponse(200, consentPage(parseAuthorizeRequest(context, params)));
  } catch (error) {
    return refusal(context, error, 302, requestId);
  }
}

async function submit(
  context: CoreContext,
  request: CoreRequest,
  logins: LoginGuard,
  requestId: string,
): Promise<CoreResponse> {
  let authorization: AuthorizeRequest;
  let form: URLSearchParams;
  try {
    form = await readForm(request);
    authorization = parseAuthorizeRequest(context, form);
  } catch (error) {
    return refusal(context, error instanceof OAuthError ? new AuthorizeError(error) : error, 303, requestId);
  }
  const decision = form.get('decision');
  if (decision === 'deny') {
    return redirect(context, authorization, {
      error: 'access_denied',
      error_description: 'The user denied the request',
    });
  }
  if (decision !== 'approve') {
    return redirect(context, authorization, {
      error: 'invalid_request',
      error_description: 'The form had no decision',
    });
  }
  const login = form.get('login') ?? '';
  const password = form.get('password') ?? '';
  const outcome = await logins.check({ app: authorization.app, login, password, address: request.clientAddress });
  // A failed login shows the form again (200: the page itself is fine) so that the user can retry; a throttled
  // one too, with its wait (429, RFC 6585 §4).
  if (outcome.status === 'throttled') {
    const { retryAfter } = outcome;
    const page = consentPage(authorization, { login, message: throttledMessage(retryAfter), requestId });
    return htmlResponse(429, page, { 'retry-after': String(retryAfter) });
  }
  if (outcome.status === 'refused') {
    const message = 'The login or password is incorrect.';
    return htmlResponse(200, consentPage(authorization, { login, message, requestId }));
  }
  const { user } = outcome;
  try {
    assertScopesAllowed(context.store, user.id, authorization.scopes);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return redirect(context, authorization, { error: error.code, error_description: error.description });
  }

  try {
    return redirect(context, authorization, await grant(context, authorization, user.id));
  } catch (error) {
    const disk = diskFailureOf(error);
    if (!disk) throw error;
    // RFC 6749 §4.1.2.1: the client hears of it and can let the user try again later.
    console.error(diskFailureLine(context.store, disk, requestLine('POST', request.url), 303));
    return redirect(context, authorization, { error: 'temporarily_unavailable', error_description: UNAVAILABLE });
  }
}

/** The parameters of the redirect that grants `authorization`: a code, or a token (implicit grant). */
async function grant(
  context: CoreContext,
  authorization: AuthorizeRequest,
  userId: string,
): Promise<Record<string, string>> {
  if (authorization.responseType === 'code') {
    const code = await issueCode(context, {
      app: authorization.app,
      userId,
      redirectUri: authorization.redirectUri,
      scopes: authorization.scopes,
      ...(authorization.codeChallenge === undefined ? {} : { codeChallenge: authorization.codeChallenge }),
    });
    return { code };
  }
  const issued = await issueToken(context, { appId: authorization.app.id, userId, scopes: authorization.scopes });
  return {
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: String(context.tokenTtl),
    scope: formatScopes(issued.row.scopes).scope,
  };
}

function refusal(context: CoreContext, error: unknown, status: 302 | 303, requestId: string): CoreResponse {
  if (!(error instanceof AuthorizeError)) throw error;
  if (!error.target) {
    return htmlResponse(error.error.status, errorPage(error.error.description, requestId), error.error.headers);
  }
  const params = { error: error.error.code, error_description: error.error.description };
  return redirect(context, error.target, params, status);
}

/**
 * Back to the client with `params`, the request's `state` and the issuer (RFC 9207 `iss`, errors included, so
 * that a client talking to several servers can tell whose answer it got). Existing query parameters of the
 * redirect URI are kept (RFC 6749 §3.1.2). 303 after the form so that the client's endpoint is fetched with GET
 * (RFC 9700, "307 Redirect").
 */
function redirect(
  context: CoreContext,
  target: RedirectTarget,
  params: Record<string, string>,
  status: 302 | 303 = 303,
): CoreResponse {
  const added = new URLSearchParams(params);
  if (target.state !== undefined) added.set('state', target.state);
  added.set('iss', issuerOf(context.addresses));
  const url = new URL(target.redirectUri);
  if (target.fragment) url.hash = added.toString();
  else url.search = url.search ? `${url.search}&${added}` : `?${added}`;
  return { status, headers: { location: url.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } };
}
