/** An asset's file as an entity: its bytes, checked once per change, validated by their MD5 digest. */

import type { Entity } from '../../http/entity.js';
import { toSeconds } from '../../http/http-date.js';
import { notFound } from '../../http/http-error.js';
import type { RepresentationCache } from '../../http/representation-cache.js';
import type { AssetRow, Store } from '../../store/types.js';
import { describeAsset, storedAssetBytes } from './asset-bytes.js';

/**
 * The file of `asset`. Its ETag is the quoted MD5 digest: a strong validator already, the one clients
 * compare, and what `If-Match` on the asset's deletion is checked against. Bytes that are missing or not those of
 * the digest are a 404 and a log line, never a 200 that caches would keep for a year.
 */
export function assetFileEntity(cache: RepresentationCache, store: Store, asset: AssetRow): Entity {
  return cache.cached(`asset-file:${asset.id}`, [store.revision('assets'), store.revision('files')], () => {
    const current = store.get('assets', asset.id) ?? asset;
    const stored = storedAssetBytes(store, current);
    if (stored.problem !== undefined) {
      console.error(`storefront-server: ${describeAsset(current)}: ${stored.problem}; answering 404`);
      throw notFound(`No file for asset ${asset.id}`);
    }
    return { body: stored.bytes, ...assetFileValidators(current) };
  });
}

/**
 * What conditions on the file of `asset` are checked against, without its bytes: a deletion must work for an
 * asset whose bytes are gone, so that a client can remove what it cannot read.
 */
export function assetFileValidators(asset: AssetRow): Omit<Entity, 'body'> {
  return {
    contentType: asset.content_type,
    etag: `"${asset.digest}"`,
    lastModified: toSeconds(Date.parse(asset.updated_on)),
  };
}
