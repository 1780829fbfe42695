/**
 * Writes of theme assets: metadata in `assets`, bytes in `files` under the same id, so that listing
 * assets never loads files.
 */
import type { AssetRow, ThemeRow, Transaction } from '../../store/types.js';
import type { AssetFile } from './asset-file.js';
import { assertRoomForAsset } from './theme-limits.js';
import { nextTimestamp, touchTheme } from './touch.js';

/** Stores a file as a new asset, or replaces the asset with the same file name; `created` tells which. */
export function saveAsset(
  tx: Transaction,
  theme: ThemeRow,
  file: AssetFile,
  /** The bytes in base64, as stored. */
  data: string,
  now: number,
): { asset: AssetRow; created: boolean } {
  const fields = { content_type: file.content_type, digest: file.digest, file_size: file.file_size };
  const existing = tx.where('assets', 'theme_id', theme.id).find((a) => a.file_name === file.file_name);
  assertRoomForAsset(tx, theme, file.file_size, existing?.file_size);
  touchTheme(tx, theme, now);
  if (existing) {
    const asset = tx.update('assets', existing.id, { ...fields, updated_on: nextTimestamp(existing.updated_on, now) });
    if (tx.get('files', existing.id)) tx.update('files', existing.id, { data });
    else tx.insert('files', { id: existing.id, data });
    return { asset, created: false };
  }
  const stamp = new Date(now).toISOString();
  const asset = tx.insert('assets', {
    theme_id: theme.id,
    file_name: file.file_name,
    ...fields,
    created_on: stamp,
    updated_on: stamp,
  });
  tx.insert('files', { id: asset.id, data });
  return { asset, created: true };
}

/** Deletes an asset and its bytes. */
export function deleteAsset(tx: Transaction, theme: ThemeRow, asset: AssetRow, now: number): void {
  touchTheme(tx, theme, now);
  tx.delete('assets', asset.id);
  if (tx.get('files', asset.id)) tx.delete('files', asset.id);
}
