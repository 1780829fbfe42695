/**
 * The secret in a theme's preview address: random, so that only those shown the theme (its shop's
 * administrators) can open the page, and stored, so that it stays the same for the theme's life and a
 * preview tab can be reloaded.
 */
import { randomSecret, timingSafeEqual } from '../../oauth/secrets.js';
import type { Dataset, Store, ThemeRow } from '../../store/types.js';

/** A new theme's preview key: 18 random bytes, 24 base64url characters. */
export function newPreviewKey(): string {
  return randomSecret(18);
}

/** Whether `key` (from a request) is the theme's preview key, compared in constant time. */
export function isPreviewKey(theme: ThemeRow, key: string): boolean {
  return Boolean(theme.preview_key) && timingSafeEqual(theme.preview_key, key);
}

/** Gives each theme of a data set without a preview key (data from before they existed) one, in place. */
export function fillPreviewKeys(data: Partial<Dataset>): void {
  for (const theme of data.themes ?? []) theme.preview_key ||= newPreviewKey();
}

/** {@link fillPreviewKeys} for a store that is already open, in one write; none when every theme has a key. */
export async function addMissingPreviewKeys(store: Store): Promise<void> {
  const missing = store.all('themes').filter((theme) => !theme.preview_key);
  if (missing.length === 0) return;
  await store.write((tx) => {
    for (const theme of missing) tx.update('themes', theme.id, { preview_key: newPreviewKey() });
  });
}
