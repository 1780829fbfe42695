/**
 * The demo user and app of an imported data set. The source's users, apps and tokens are never copied; these two
 * are made instead, the user owning every imported shop. For the data set to be the same on every import they
 * are derived, not drawn: fixed sandbox secrets (the mock's, unless given), a client id and a password salt
 * derived from the source and the secrets.
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { MOCK_DEMO_SECRETS } from '../msw/initial-data.js';
import { DEMO_REDIRECT_URIS, type DemoCredentials, demoAccessRows } from '../seed/seed.js';
import { sha256 } from '../shared/sha256.js';
import type { AppRow, UserRow } from '../store/types.js';

/** The demo credentials of an imported data set, to use instead of the derived ones. */
export interface ImportDemoOptions {
  /** Default `demo`. */
  login?: string;
  /** Default: the mock's fixed demo password (`msw-demo-password`). */
  password?: string;
  /** Default: derived from the source's URL. */
  clientId?: string;
  /** Default: the mock's fixed demo client secret (`msw-demo-client-secret`). */
  clientSecret?: string;
}

/** The demo user and app, with their credentials in clear to print. */
export interface DemoAccess {
  user: UserRow;
  app: AppRow;
  credentials: DemoCredentials;
}

/** The id of the demo user, owner of every imported shop. */
export const DEMO_USER_ID = '1';

const encoder = new TextEncoder();

/** SHA-256 of the parts, each ended by a NUL so that no two lists of parts run together. */
function derive(...parts: string[]): Uint8Array {
  return sha256(encoder.encode(parts.map((part) => `${part}\0`).join('')));
}

/** The demo user and app of a data set imported from `source` (the API's root URL). */
export function demoAccess(source: string, options: ImportDemoOptions = {}): DemoAccess {
  const credentials: DemoCredentials = {
    clientId: options.clientId ?? `demo-${bytesToHex(derive('storefront import client id', source).slice(0, 8))}`,
    clientSecret: options.clientSecret ?? MOCK_DEMO_SECRETS.clientSecret,
    login: options.login ?? 'demo',
    password: options.password ?? MOCK_DEMO_SECRETS.password,
    redirectUris: [...DEMO_REDIRECT_URIS],
  };
  const salt = derive('storefront import salt', source, credentials.login, credentials.password).slice(0, 16);
  return { ...demoAccessRows(credentials, salt), credentials };
}

/** A theme's preview key (the secret in its preview page's address), derived like the rest of the demo access. */
export function previewKeyOf(source: string, themeId: string, clientSecret: string): string {
  return encodeBase64Url(derive('storefront import preview key', source, themeId, clientSecret).slice(0, 18));
}
