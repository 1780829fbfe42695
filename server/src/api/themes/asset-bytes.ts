/**
 * An asset's stored bytes, checked against its row: a file link must never answer for bytes that are not there
 * (data damaged by hand, or written by a version whose multi-file writes a crash could cut in half).
 */
import { decodeBase64 } from '@storefront-platform/sdk/internal';
import type { AssetRow, Store } from '../../store/types.js';
import { assetDigest } from './asset-file.js';

/** The asset's bytes, or why they cannot be served. */
export type StoredAssetBytes = { bytes: Uint8Array; problem?: undefined } | { problem: string };

/** The bytes stored for `asset`, checked to be there, whole and of the digest its row claims. */
export function storedAssetBytes(store: Pick<Store, 'get'>, asset: AssetRow): StoredAssetBytes {
  const row = store.get('files', asset.id);
  if (!row) return { problem: 'its bytes are missing' };
  const bytes = decodeBase64(row.data);
  if (!bytes) return { problem: 'its stored bytes are not valid base64' };
  if (bytes.length !== asset.file_size || assetDigest(bytes) !== asset.digest) {
    return { problem: `its stored bytes (${bytes.length}) do not match its size (${asset.file_size}) and digest` };
  }
  return { bytes };
}

/** How a log line names an asset: enough for the data's owner to find it. */
export function describeAsset(asset: AssetRow): string {
  return `asset ${asset.id} (${asset.file_name} of theme ${asset.theme_id})`;
}

/**
 * The start's check of stored data: each asset whose bytes are missing or not those of its digest is reported in
 * one line to `report` and deleted, row and bytes, in one write. Deleted rather than kept: a row that stays claims
 * a file nobody can read, and the themes CLI, comparing digests, would call the theme up to date and never send it
 * again; gone, the asset shows as missing and the next push uploads it. Returns how many were removed.
 */
export async function removeAssetsWithoutBytes(store: Store, report: (line: string) => void): Promise<number> {
  const broken = store.all('assets').flatMap((asset) => {
    const { problem } = storedAssetBytes(store, asset);
    return problem === undefined ? [] : [{ asset, problem }];
  });
  if (broken.length === 0) return 0;
  await store.write((tx) => {
    for (const { asset } of broken) {
      tx.delete('assets', asset.id);
      tx.delete('files', asset.id);
    }
  });
  for (const { asset, problem } of broken) {
    report(`${describeAsset(asset)}: ${problem}; removed it, upload the file again`);
  }
  return broken.length;
}
