/**
 * HAL+JSON building blocks shared by the SDK and the reference server (spec §2.1, §2.2).
 * Type-only: the server imports these with `import type`, so the two sides cannot drift.
 */

/** HTTP verbs a link may declare in `method` (absent means GET). */
export type LinkMethod = 'put' | 'post' | 'delete';

/** A link object (spec §2.2). */
export interface Link {
  /** Target URL, or an RFC 6570 URI template when `templated` is true. May be relative to the document URL. */
  href: string;
  /** Lower-case verb to use; when absent the link is followed with GET. */
  method?: LinkMethod;
  /** True when `href` is a URI template. */
  templated?: boolean;
  /** Human-readable description. */
  title?: string;
  /** Media type of the target when it is not JSON (e.g. `text/html`, `image/png`). */
  type?: string;
  /** Name of the relation. */
  name?: string;
  /** Documentation of the relation. */
  docs?: string;
}

/** A curie: `href` is a template containing `{rel}` that expands to the relation's documentation. */
export interface Curie {
  name: string;
  href: string;
  templated: true;
}

/** The `_links` member: relation name → link (or links); `curies` → the curie list. */
export interface Links {
  self?: Link;
  curies?: Curie[];
  [rel: string]: Link | Link[] | Curie[] | undefined;
}

/** Any HAL resource as it travels on the wire. */
export interface HalResource {
  _class?: string[];
  _links?: Links;
  /** Name → an array of resources, even for one (spec §2.1). */
  _embedded?: Record<string, HalResource[]>;
  [member: string]: unknown;
}

/** One field's validation messages inside a 422 error. */
export interface FieldError {
  field: string;
  messages: string[];
}

/** Error body of the resource API (wire contract, Errors). */
export interface ErrorBody {
  _class: ['errors'];
  message: string;
  _embedded?: { errors: FieldError[] };
  /** The request's id, as its answer's `X-Request-Id` gives it: what to quote when asking about the error. */
  request_id?: string;
}

/**
 * `error` codes the authorization service sends: RFC 6749 §5.2 (token endpoint), §4.1.2.1 and §4.2.2.1
 * (`access_denied`, `unsupported_response_type` and `server_error`, in authorization redirects; the token
 * endpoint also answers `server_error` to a failure of its own), and `slow_down`.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  /**
   * A 429 with `Retry-After` from the token endpoint: too many failed logins for the user, or from the client at
   * this address (wire contract, "Authorization service"). Borrowed from RFC 8628 §3.5, where it asks a device
   * to poll less often; RFC 6749 has no code for throttling, and this one says what to do.
   */
  | 'slow_down';

/** Error body of the token endpoint (RFC 6749 §5.2). */
export interface OAuthErrorBody {
  /** An {@link OAuthErrorCode}; other authorization servers may send codes of their own. */
  error: OAuthErrorCode | (string & {});
  error_description?: string;
  /** The request's id, as its answer's `X-Request-Id` gives it: what to quote when asking about the error. */
  request_id?: string;
}

/** Success body of the token endpoint (spec §5.2 plus RFC 6749's `scope`). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  /** Lifetime in seconds. */
  expires_in: number;
  /** Comma-separated granted scopes (the spec's form). */
  scopes: string;
  /** Space-separated granted scopes (RFC 6749 §5.1). */
  scope: string;
}
