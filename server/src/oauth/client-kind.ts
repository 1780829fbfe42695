import type { AppKind, AppRow } from '../store/types.js';

/**
 * The kind of an app row without one (data written before kinds existed): `web`, whose redirect URIs match
 * exactly. Taking such an app for a native one would give every local process a redirect to collect its
 * authorizations from; the demo app, the one the themes CLI signs in with, is marked native at the start instead.
 */
export const DEFAULT_APP_KIND: AppKind = 'web';

/** The kind an app is registered as. */
export function kindOf(app: AppRow): AppKind {
  return app.kind ?? DEFAULT_APP_KIND;
}

/**
 * Whether `app` is a public client (RFC 6749 §2.1): a native app or a browser page, which cannot keep a secret
 * from its users. It must use PKCE in the code flow (RFC 9700 §2.1.1, RFC 8252 §8.1), and may then exchange its
 * code without a secret.
 */
export function isPublicClient(app: AppRow): boolean {
  return kindOf(app) !== 'web';
}

/**
 * Whether `app` may use the implicit grant: only a browser page registered for it (the explorer), at its exact
 * redirect URIs. RFC 9700 §2.1.2 deprecates the grant; a native app uses the code flow with PKCE instead, so that
 * a token never lands on whatever local port a crafted link names.
 */
export function allowsImplicitGrant(app: AppRow): boolean {
  return kindOf(app) === 'browser';
}
