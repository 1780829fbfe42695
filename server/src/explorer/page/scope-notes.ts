/**
 * What the token's scope hides. The server leaves out the links a token may not use (no `svc:theme` on a shop
 * without `admin`), silently; the page says which are missing and why, and offers the sign-in that shows them.
 */
import type { Entity } from '@storefront-platform/sdk';
import { h } from './dom.js';
import { SCOPES, type ScopeName } from './session.js';

/** Relations the server gives only to `admin` tokens (on a shop: of its administrators), by `_class`. */
const ADMIN_ONLY: Record<string, readonly string[]> = {
  root: [
    'svc:all_orders',
    'svc:order',
    'svc:events',
    'svc:event',
    'svc:webhook_endpoints',
    'svc:create_webhook_endpoint',
  ],
  shop: ['svc:theme', 'svc:orders'],
};

/** The relations `entity` lacks because the token has no `admin` scope; none when it has. */
export function hiddenByScope(entity: Entity, scopes: readonly string[]): string[] {
  if (scopes.includes('admin')) return [];
  const expected = entity._class.flatMap((name) => ADMIN_ONLY[name] ?? []);
  return expected.filter((rel) => !entity.links.has(rel));
}

/** The scope named in an `X-Accepted-OAuth-Scopes` value (comma or space separated) that the page can ask for. */
export function acceptedScope(header: string | undefined): ScopeName | undefined {
  const names = (header ?? '').split(/[\s,]+/).filter(Boolean);
  return names.find((name): name is ScopeName => Object.hasOwn(SCOPES, name));
}

/** The note over a view missing `rels`, with the button that signs in with `admin`. */
export function scopeNote(rels: readonly string[], scopes: readonly string[], onSignIn: () => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'write' }, 'Sign in with admin');
  button.onclick = onSignIn;
  return h(
    'section',
    { class: 'scope-note', 'aria-labelledby': 'scope-note-title' },
    h('h3', { id: 'scope-note-title' }, 'Links hidden by the scope'),
    h(
      'p',
      null,
      `Your token has the scope ${scopes.join(' ') || '(none)'}: this view lacks `,
      ...rels.flatMap((rel, i) => [i ? ', ' : '', h('code', null, rel)]),
      ', which need the admin scope (and, on a shop, that you administer it). ',
      button,
    ),
  );
}
