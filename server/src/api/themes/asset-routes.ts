/** Theme asset endpoints: upload (create or replace by file name) and delete. */

import { encodeBase64 } from '@storefront-platform/sdk/internal';
import type { Call, Reply, Route } from '../../http/route.js';
import type { AssetRow } from '../../store/types.js';
import { assetEvent } from '../events/subjects.js';
import { guardedDelete, preconditionsOn } from '../guarded-write.js';
import { deleteAsset, readAssetUpload, saveAsset } from './asset.js';
import { administeredTheme, themeAsset } from './lookup.js';
import { assetEntity, assetFileValidators } from './representations.js';

/**
 * An asset's validators are its file's, not its bytes': one whose bytes are gone can still be deleted or replaced.
 */
const fileValidators = (_: Call, asset: AssetRow) => assetFileValidators(asset);

/**
 * Creates an asset, or replaces the one of that file name. The preconditions are checked against that asset's file
 * (none: `If-None-Match: *` holds, so it means "create only"), once the upload has named it.
 */
async function uploadAsset(call: Call): Promise<Reply> {
  const { theme } = administeredTheme(call, call.params.theme_id!);
  const file = await readAssetUpload(call.request);
  // Encoded before the write so that the queue is held only for the bookkeeping.
  const data = encodeBase64(file.bytes);
  const { asset, created } = await call.context.store.write((tx) => {
    const saved = saveAsset(tx, theme, file, data, call.context.clock.now(), preconditionsOn(call, fileValidators));
    assetEvent(tx, call.context, theme, saved.asset, saved.created ? 'created' : 'updated');
    return saved;
  });
  return { status: created ? 201 : 200, entity: assetEntity(call, asset) };
}

/** Deletes an asset. */
function removeAsset(call: Call): Promise<Reply> {
  const { theme } = administeredTheme(call, call.params.theme_id!);
  return guardedDelete(
    call,
    () => themeAsset(call, theme, call.params.asset_id!),
    fileValidators,
    (tx, row, now) => {
      deleteAsset(tx, theme, row, now);
      assetEvent(tx, call.context, theme, row, 'deleted');
    },
  );
}

/** Routes of theme assets on the API mount. */
export const assetRoutes: Route[] = [
  { method: 'POST', path: '/themes/:theme_id/assets', scope: 'admin', handle: uploadAsset },
  { method: 'DELETE', path: '/themes/:theme_id/assets/:asset_id', scope: 'admin', handle: removeAsset },
];
