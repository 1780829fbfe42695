/**
 * The authorization service's forms and metadata (spec §5, wire contract "Authorization service"): what the
 * token endpoint and the authorize page take, and what the metadata document holds. Their answers (the token, the
 * error body) are in hal.ts beside the resource API's. The OpenAPI document's OAuth paths are built from these.
 */

/** How a confidential client may authenticate in the form instead of the Basic header (never both). */
export interface ClientInForm {
  /** With `client_secret`, instead of the Basic header (never both). */
  client_id?: string;
  client_secret?: string;
}

/** Client credentials: the token acts as the app's owner. */
export interface ClientCredentialsGrant extends ClientInForm {
  grant_type: 'client_credentials';
  /** `admin` or `public` (the default), space- or comma-separated. */
  scope?: string;
}

/** Resource owner password credentials (trusted apps only). */
export interface PasswordGrant extends ClientInForm {
  grant_type: 'password';
  username: string;
  password: string;
  /** `admin` or `public` (the default), space- or comma-separated. */
  scope?: string;
}

/**
 * JWT bearer (RFC 7523): exchanges an expired token for a new one with the same user and scopes; the old one is
 * revoked.
 */
export interface JwtBearerGrant {
  grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer';
  /**
   * HS256 JWT signed with the client secret: `iss` the client id, `aud`, `exp` (at most an hour ahead), `sub` (or
   * `prn`) the expired access token.
   */
  assertion: string;
  /** Accepted without a secret when it equals the assertion's `iss`. */
  client_id?: string;
}

/** The JWT bearer grant in the legacy form older official clients send. */
export interface LegacyJwtBearerGrant {
  grant_type: 'assertion';
  assertion_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer';
  assertion: string;
  client_id?: string;
}

/** Authorization code (+ PKCE), from the authorize endpoint's redirect. */
export interface AuthorizationCodeGrant extends ClientInForm {
  grant_type: 'authorization_code';
  code: string;
  redirect_uri?: string;
  /** PKCE (S256); required of public and native clients. */
  code_verifier?: string;
}

/** The token endpoint's form (`application/x-www-form-urlencoded`), one per grant. */
export type TokenRequest =
  | ClientCredentialsGrant
  | PasswordGrant
  | JwtBearerGrant
  | LegacyJwtBearerGrant
  | AuthorizationCodeGrant;

/** What the authorize page answers with: a code (the authorization code grant) or a token (the implicit one). */
export type AuthorizeResponseType = 'code' | 'token';

/** The authorize page's query. */
export interface AuthorizeQuery {
  response_type: AuthorizeResponseType;
  client_id: string;
  /** One of the client's registered redirect URIs; the first one when absent. */
  redirect_uri?: string;
  /** `admin` or `public` (the default), space- or comma-separated. */
  scope?: string;
  /** Sent back unchanged with the answer. */
  state?: string;
  /** PKCE: base64url of the verifier's SHA-256. */
  code_challenge?: string;
  code_challenge_method?: 'S256';
}

/** The authorize page's form: the query's parameters, with the person's login and decision. */
export interface AuthorizeDecisionForm extends AuthorizeQuery {
  login?: string;
  password?: string;
  decision: 'approve' | 'deny';
}

/** Authorization server metadata (RFC 8414 §2): the members the service sends. */
export interface AuthorizationServerMetadata {
  /** Also sent as `iss` in authorization responses (RFC 9207). */
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  grant_types_supported?: string[];
  response_types_supported: string[];
  response_modes_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  scopes_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
}
