import type { CoreContext, CoreRequest, CoreResponse } from '../core/types.js';
import { type ClientCredentials, readClientCredentials } from './clients.js';
import { OAuthError, quoted } from './errors.js';
import { authorizationCodeGrant } from './grants/authorization-code.js';
import { clientCredentialsGrant } from './grants/client-credentials.js';
import { JWT_BEARER, jwtBearerGrant } from './grants/jwt-bearer.js';
import { passwordGrant } from './grants/password.js';
import type { LoginCheck, LoginGuard } from './login-guard.js';
import { readFormParams, requireParam } from './params.js';
import { tokenErrorResponse, tokenMethodNotAllowed, tokenResponse } from './responses.js';
import type { IssuedToken } from './tokens.js';

type Grant = (
  context: CoreContext,
  params: Map<string, string>,
  client: ClientCredentials | undefined,
  checkLogin: LoginCheck,
) => Promise<IssuedToken>;

const GRANTS: Record<string, Grant> = {
  client_credentials: clientCredentialsGrant,
  password: passwordGrant,
  authorization_code: authorizationCodeGrant,
  [JWT_BEARER]: jwtBearerGrant,
};

/** `POST {auth_url}/oauth/token` (RFC 6749 §3.2, spec §5.1); its error bodies name the request by `requestId`. */
export async function handleTokenRequest(
  context: CoreContext,
  request: CoreRequest,
  logins: LoginGuard,
  requestId?: string,
): Promise<CoreResponse> {
  if (request.method !== 'POST') return tokenMethodNotAllowed(requestId);
  try {
    const params = await readFormParams(request);
    const client = readClientCredentials(request, params);
    const grant = grantOf(params);
    const checkLogin: LoginCheck = (attempt) => logins.check({ ...attempt, address: request.clientAddress });
    return tokenResponse(context, await grant(context, params, client, checkLogin));
  } catch (error) {
    if (error instanceof OAuthError) return tokenErrorResponse(error, requestId);
    throw error;
  }
}

function grantOf(params: Map<string, string>): Grant {
  let grantType = requireParam(params, 'grant_type');
  // The draft-era form older official clients send: grant_type=assertion plus the assertion's type.
  if (grantType === 'assertion') {
    grantType = requireParam(params, 'assertion_type');
    if (grantType !== JWT_BEARER) {
      throw new OAuthError('unsupported_grant_type', `The assertion type ${quoted(grantType)} is not supported`);
    }
  }
  const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined;
  if (!grant) throw new OAuthError('unsupported_grant_type', `The grant type ${quoted(grantType)} is not supported`);
  return grant;
}
