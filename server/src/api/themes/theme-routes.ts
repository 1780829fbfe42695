/** Theme endpoints: the production theme, a theme by id, its update, and the development theme's creation. */

import { assertPreconditions } from '../../http/conditional.js';
import type { Call, Reply, Route } from '../../http/route.js';
import { administeredShop } from '../access.js';
import { readBody } from '../contract-schemas.js';
import { themeEvent } from '../events/subjects.js';
import { guardedWrite, preconditionsOn } from '../guarded-write.js';
import { administeredTheme, productionTheme } from './lookup.js';
import { themeEntity } from './representations.js';
import { checkSettings, checkTitle, ensureDevTheme, MAX_SETTINGS_BYTES, touchTheme } from './theme.js';
import { themeUrl } from './urls.js';

/** A shop's production theme. */
function showProductionTheme(call: Call): Reply {
  const shop = administeredShop(call, call.params.shop_id!);
  return { entity: themeEntity(call, productionTheme(call, shop)) };
}

/** A theme. */
function showTheme(call: Call): Reply {
  return { entity: themeEntity(call, administeredTheme(call, call.params.theme_id!).theme) };
}

/** Updates a theme: its title and/or settings. */
async function editTheme(call: Call): Promise<Reply> {
  const { theme } = administeredTheme(call, call.params.theme_id!);
  // RFC 9110 §13.2.1: preconditions before the content; checked again in the write queue, where it counts.
  assertPreconditions(call.request.headers, themeEntity(call, theme));
  const input = await readBody(call.request, 'theme', 'svc:update_theme', MAX_SETTINGS_BYTES * 2);
  const patch: { title?: string; settings?: Record<string, unknown> } = {};
  if (input.title !== undefined) patch.title = checkTitle(input.title);
  if (input.settings !== undefined) patch.settings = checkSettings(input.settings);
  const current = () => administeredTheme(call, theme.id).theme;
  const updated = await guardedWrite(call, current, themeEntity, (tx, row) => {
    touchTheme(tx, row, call.context.clock.now());
    const changed = tx.update('themes', row.id, patch);
    themeEvent(tx, call.context, changed, 'updated');
    return changed;
  });
  return { entity: themeEntity(call, updated) };
}

/**
 * Creates the shop's development theme, or answers the one it has. The preconditions are checked against that one
 * (none: `If-None-Match: *` holds, so it means "create only").
 */
async function createDevTheme(call: Call): Promise<Reply> {
  const shop = administeredShop(call, call.params.shop_id!);
  const { theme, created } = await call.context.store.write((tx) => {
    const ensured = ensureDevTheme(tx, shop, call.context.clock.now(), preconditionsOn(call, themeEntity));
    // An existing development theme is answered, not written: no event.
    if (ensured.created) themeEvent(tx, call.context, ensured.theme, 'created');
    return ensured;
  });
  const entity = themeEntity(call, theme);
  if (!created) return { entity };
  return { status: 201, entity, headers: { location: themeUrl(call.context.addresses, theme.id) } };
}

/** Routes of themes on the API mount. */
export const themeRoutes: Route[] = [
  { method: 'GET', path: '/shops/:shop_id/theme', scope: 'admin', handle: showProductionTheme },
  { method: 'GET', path: '/themes/:theme_id', scope: 'admin', handle: showTheme },
  { method: 'PUT', path: '/themes/:theme_id', scope: 'admin', handle: editTheme },
  { method: 'POST', path: '/shops/:shop_id/themes', scope: 'admin', handle: createDevTheme },
];
