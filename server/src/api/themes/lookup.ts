/**
 * Finding a theme and its parts for the caller: a theme is visible only to its shop's administrator using an
 * admin token; anything else, like an unknown id or a template of another theme, is a 404.
 */
import { notFound } from '../../http/http-error.js';
import type { Call } from '../../http/route.js';
import type { AssetRow, ShopRow, TemplateRow, ThemeRow } from '../../store/types.js';
import { administers } from '../access.js';

/** The theme `id` and its shop, if the caller administers the shop. */
export function administeredTheme(call: Call, id: string): { theme: ThemeRow; shop: ShopRow } {
  const store = call.context.store;
  const theme = store.get('themes', id);
  const shop = theme && store.get('shops', theme.shop_id);
  if (!theme || !shop || !administers(call.principal, shop)) throw notFound(`No theme ${id}`);
  return { theme, shop };
}

/** The template `id` of `theme`, else 404. */
export function themeTemplate(call: Call, theme: ThemeRow, id: string): TemplateRow {
  const template = call.context.store.get('templates', id);
  if (!template || template.theme_id !== theme.id) throw notFound(`No template ${id} in theme ${theme.id}`);
  return template;
}

/** The asset `id` of `theme`, else 404. */
export function themeAsset(call: Call, theme: ThemeRow, id: string): AssetRow {
  const asset = call.context.store.get('assets', id);
  if (!asset || asset.theme_id !== theme.id) throw notFound(`No asset ${id} in theme ${theme.id}`);
  return asset;
}

/** The production theme of `shop`, else 404. */
export function productionTheme(call: Call, shop: ShopRow): ThemeRow {
  const theme = call.context.store.where('themes', 'shop_id', shop.id).find((t) => t.production);
  if (!theme) throw notFound(`Shop ${shop.id} has no theme`);
  return theme;
}
