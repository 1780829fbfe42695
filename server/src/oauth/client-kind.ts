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
