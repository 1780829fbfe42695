/** The authorization service: token and authorize endpoints, bearer verification, token issuance. */
export {
  type AuthenticateOptions,
  authenticate,
  type BearerFailure,
  type BearerFailureReason,
  type BearerProblem,
  type BearerResult,
  bearerChallenge,
} from './bearer.js';
export { createOAuth, type OAuthService } from './oauth.js';
export { type IssuedToken, issueToken, type TokenGrant } from './tokens.js';
