/**
 * The JSON entities of themes and templates, serialised and hashed once per change through the core's
 * representation cache, keyed by the store revisions they are built from.
 */
import type { Entity } from '../../http/entity.js';
import type { Call } from '../../http/route.js';
import type { AssetRow, TemplateRow, ThemeRow } from '../../store/types.js';
import { halEntity } from '../hal.js';
import { shopUrl } from '../urls.js';
import { assetResource, templateResource, themeResource } from './representations.js';

/**
 * A theme's entity. It embeds the templates and assets and links the shop's other theme, so it depends on
 * those three collections; every write to them also moves the theme's own `updated_on`.
 */
export function themeEntity(call: Call, theme: ThemeRow): Entity {
  const { store, addresses } = call.context;
  const revisions = [store.revision('themes'), store.revision('templates'), store.revision('assets')];
  return call.cache.cached(`theme:${theme.id}`, revisions, () => {
    const current = store.get('themes', theme.id) ?? theme;
    return halEntity(
      addresses,
      themeResource(addresses, store, current, shopUrl(addresses, current.shop_id)),
      Date.parse(current.updated_on),
    );
  });
}

/** A template's entity. */
export function templateEntity(call: Call, template: TemplateRow): Entity {
  const { store, addresses } = call.context;
  return call.cache.cached(`template:${template.id}`, [store.revision('templates')], () => {
    const current = store.get('templates', template.id) ?? template;
    return halEntity(addresses, templateResource(addresses, current), Date.parse(current.updated_on));
  });
}

/** An asset's entity (sent after an upload; assets have no address of their own to read). */
export function assetEntity(call: Call, asset: AssetRow): Entity {
  const { addresses } = call.context;
  return halEntity(addresses, assetResource(addresses, asset), Date.parse(asset.updated_on));
}
