/** An asset's file as an entity: its bytes, decoded once per change, validated by their MD5 digest. */

import { decodeBase64 } from '@storefront-platform/sdk/internal';
import type { Entity } from '../../http/entity.js';
import { toSeconds } from '../../http/http-date.js';
import { notFound } from '../../http/http-error.js';
import type { RepresentationCache } from '../../http/representation-cache.js';
import type { AssetRow, Store } from '../../store/types.js';

/**
 * The file of `asset`. Its ETag is the quoted MD5 digest: a strong validator already, the one clients
 * compare, and what `If-Match` on the asset's deletion is checked against.
 */
export function assetFileEntity(cache: RepresentationCache, store: Store, asset: AssetRow): Entity {
  return cache.cached(`asset-file:${asset.id}`, [store.revision('assets'), store.revision('files')], () => {
    const current = store.get('assets', asset.id) ?? asset;
    const bytes = decodeBase64(store.get('files', asset.id)?.data ?? '');
    if (!bytes) throw notFound(`No file for asset ${asset.id}`);
    return {
      body: bytes,
      contentType: current.content_type,
      etag: `"${current.digest}"`,
      lastModified: toSeconds(Date.parse(current.updated_on)),
    };
  });
}
