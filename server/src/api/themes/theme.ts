/**
 * A theme itself: what its title and settings may be; how much it may hold, bounded so that its representation,
 * its copy as a development theme and the data file stay a sensible size whatever clients send; how every write to
 * it, its templates or its assets moves its `updated_on`, so that the theme's validators (and its cached
 * representation) change with any of its parts; its preview key, random so that only those shown the theme (its
 * shop's administrators) can open the preview, and stored so that it stays the same for the theme's life and a
 * preview tab can be reloaded; and the development theme, a copy of the production theme (settings, templates,
 * assets and their bytes), at most one per shop, created in one store write so that it exists whole or not at
 * all, even across a crash (the JSON-file store journals a write of many files).
 */
import { API_LIMITS } from '@storefront-platform/sdk/internal';
import { HttpError, notFound, validationError } from '../../http/http-error.js';
import { randomSecret, timingSafeEqual } from '../../oauth/secrets.js';
import type { Dataset, ShopRow, Store, ThemeRow, Transaction } from '../../store/types.js';

/** Longest theme title, in characters. */
export const MAX_TITLE_LENGTH = API_LIMITS.themeTitleLength;
/** Largest settings object, in bytes of its JSON. */
export const MAX_SETTINGS_BYTES = API_LIMITS.settingsBytes;
const MAX_SETTINGS_DEPTH = API_LIMITS.settingsDepth;

/** Checks a theme title; throws a 422 on `title`. */
export function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === '') throw validationError('title', 'must not be empty');
  if (trimmed.length > MAX_TITLE_LENGTH)
    throw validationError('title', `must be at most ${MAX_TITLE_LENGTH} characters`);
  return trimmed;
}

/**
 * Checks a settings object: at most 64 KiB as JSON (413), nested at most 16 deep, and no `__proto__` key at
 * any depth, which a client merging settings into its own objects could mistake for the prototype (422).
 */
export function checkSettings(settings: Record<string, unknown>): Record<string, unknown> {
  // Depth first: serialising a deeply nested value would overflow the stack.
  const walk = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null) return;
    if (depth > MAX_SETTINGS_DEPTH)
      throw validationError('settings', `must be nested at most ${MAX_SETTINGS_DEPTH} deep`);
    for (const [key, member] of Object.entries(value)) {
      if (key === '__proto__') throw validationError('settings', 'must not contain a "__proto__" key');
      walk(member, depth + 1);
    }
  };
  walk(settings, 1);
  const json = JSON.stringify(settings);
  if (new TextEncoder().encode(json).byteLength > MAX_SETTINGS_BYTES) {
    throw new HttpError(413, `Theme settings too large: at most ${MAX_SETTINGS_BYTES} bytes as JSON`);
  }
  // A fresh parse: the stored object shares nothing with the request's.
  return JSON.parse(json) as Record<string, unknown>;
}

/** Most templates in one theme. */
export const MAX_TEMPLATES_PER_THEME = API_LIMITS.templatesPerTheme;
/** Most assets in one theme. */
export const MAX_ASSETS_PER_THEME = API_LIMITS.assetsPerTheme;
/** Most bytes of all asset files of one theme together. */
export const MAX_ASSET_BYTES_PER_THEME = API_LIMITS.assetBytesPerTheme;

/** Throws a 422 on `file_name` when the theme has no room for another template. */
export function assertRoomForTemplate(tx: Transaction, theme: ThemeRow): void {
  if (tx.where('templates', 'theme_id', theme.id).length >= MAX_TEMPLATES_PER_THEME) {
    throw validationError(
      'file_name',
      `the theme already holds ${MAX_TEMPLATES_PER_THEME} templates; delete some first`,
    );
  }
}

/**
 * Throws when the theme has no room for a file of `size` bytes replacing `replacing` bytes: a 422 on
 * `file_name` past the asset count, a 413 past the total size.
 */
export function assertRoomForAsset(tx: Transaction, theme: ThemeRow, size: number, replacing?: number): void {
  const assets = tx.where('assets', 'theme_id', theme.id);
  if (replacing === undefined && assets.length >= MAX_ASSETS_PER_THEME) {
    throw validationError('file_name', `the theme already holds ${MAX_ASSETS_PER_THEME} assets; delete some first`);
  }
  const total = assets.reduce((sum, a) => sum + a.file_size, 0) - (replacing ?? 0) + size;
  if (total > MAX_ASSET_BYTES_PER_THEME) {
    throw new HttpError(
      413,
      `The theme's assets would exceed ${MAX_ASSET_BYTES_PER_THEME} bytes in all; delete some first`,
    );
  }
}

/**
 * The `updated_on` of a row written at `now` (epoch ms): strictly later than `previous`, so that two writes
 * in the same millisecond still tell apart.
 */
export function nextTimestamp(previous: string | undefined, now: number): string {
  const last = previous === undefined ? Number.NEGATIVE_INFINITY : Date.parse(previous);
  return new Date(Math.max(now, last + 1)).toISOString();
}

/** Marks the theme as changed at `now`; returns the new row. */
export function touchTheme(tx: Transaction, theme: ThemeRow, now: number): ThemeRow {
  const current = tx.get('themes', theme.id) ?? theme;
  return tx.update('themes', theme.id, { updated_on: nextTimestamp(current.updated_on, now) });
}

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

/**
 * The shop's development theme, creating it from the production theme when it has none. `guard` checks the one it
 * has (`undefined`: none) before anything changes: the request's preconditions.
 */
export function ensureDevTheme(
  tx: Transaction,
  shop: ShopRow,
  now: number,
  guard: (existing: ThemeRow | undefined) => void,
): { theme: ThemeRow; created: boolean } {
  const themes = tx.where('themes', 'shop_id', shop.id);
  const existing = themes.find((t) => !t.production);
  guard(existing);
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
