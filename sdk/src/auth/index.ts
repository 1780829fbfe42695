export { type ExchangeCodeOptions, exchangeCode } from './authorization-code.js';
export { type AuthorizeRequest, type AuthorizeUrlOptions, authorizeUrl } from './authorize-url.js';
export { type AuthorizedOptions, authorized, JWT_BEARER_GRANT } from './authorized.js';
export { type BearerOptions, bearer } from './bearer.js';
export { type ClientCredentialsOptions, clientCredentials } from './client-credentials.js';
export { type ImplicitFragmentOptions, readImplicitFragment } from './implicit.js';
export { type PasswordOptions, password } from './password.js';
export { pkceChallenge, pkceVerifier } from './pkce.js';
export {
  type ClientCredentials,
  requestToken,
  type TokenEndpointOptions,
  type TokenRequest,
} from './token-endpoint.js';
export type { OnToken } from './token-keeper.js';
export type { AuthStrategy, Credentials, TokenInfo } from './types.js';
