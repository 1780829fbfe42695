import { OAuthError } from './oauth-error.js';

/**
 * The token of an authorization was already exchanged, and the token that replaced it is out of reach: the instance
 * that received it died before storing it (or it is another process, outside the shared token store). No exchange
 * can bring the authorization back; the user authorizes again, or the app restores the token its `onToken` saved
 * (see the `onAuthorizationLost` option of `authorized`). Still an `OAuthError` (`invalid_grant`), with the
 * refusal of the token endpoint as `cause`, so that code catching refusals catches this one too.
 */
export class AuthorizationLostError extends OAuthError {
  override name = 'AuthorizationLostError';
  /** Always `AUTHORIZATION_LOST`. */
  declare readonly code: 'AUTHORIZATION_LOST';
  /** The authorization lost: the strategy's owner, also its key in the token store and its cache partition. */
  declare readonly owner: string;

  constructor(owner: string, cause: OAuthError) {
    super({ ...cause, cause }, 'AUTHORIZATION_LOST');
    this.owner = owner;
    this.message = `the authorization ${owner} is lost (${this.message})`;
  }
}
