/**
 * The development theme: a copy of the production theme (settings, templates, assets and their bytes),
 * at most one per shop, where changes are tried before they reach production. It is created in one store write,
 * so it exists whole or not at all, even across a crash (the JSON-file store journals a write of many files).
 */
import { notFound } from '../../http/http-error.js';
import type { ShopRow, ThemeRow, Transaction } from '../../store/types.js';
import { newPreviewKey } from './preview-key.js';

/** The shop's development theme, creating it from the production theme when it has none. */
export function ensureDevTheme(tx: Transaction, shop: ShopRow, now: number): { theme: ThemeRow; created: boolean } {
  const themes = tx.where('themes', 'shop_id', shop.id);
  const existing = themes.find((t) => !t.production);
  if (existing) return { theme: existing, created: false };
  const production = themes.find((t) => t.production);
  if (!production) throw notFound(`Shop ${shop.id} has no theme to copy`);
  const stamp = new Date(now).toISOString();
  const theme = tx.insert('themes', {
    shop_id: shop.id,
    title: `${production.title} (development)`,
    production: false,
    settings: structuredClone(production.settings),
    preview_key: newPreviewKey(),
    created_on: stamp,
    updated_on: stamp,
  });
  for (const t of tx.where('templates', 'theme_id', production.id)) {
    tx.insert('templates', {
      theme_id: theme.id,
      file_name: t.file_name,
      body: t.body,
      created_on: stamp,
      updated_on: stamp,
    });
  }
  for (const a of tx.where('assets', 'theme_id', production.id)) {
    // An asset without its bytes is not copied on: a copy could not be read either.
    const file = tx.get('files', a.id);
    if (!file) continue;
    const copy = tx.insert('assets', {
      theme_id: theme.id,
      file_name: a.file_name,
      content_type: a.content_type,
      digest: a.digest,
      file_size: a.file_size,
      created_on: stamp,
      updated_on: stamp,
    });
    tx.insert('files', { id: copy.id, data: file.data });
  }
  return { theme, created: true };
}
