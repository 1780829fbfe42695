/**
 * The HAL representations of themes, templates and assets (spec §2.3–2.5), with the links the wire contract
 * gives each. Every theme read needs the shop administrator's admin token, so a representation does not vary
 * by caller and one cached entity serves every request.
 */
import type { HalResource, Links } from '@storefront-platform/sdk/internal';
import type { Addresses } from '../../core/types.js';
import type { AssetRow, Store, TemplateRow, ThemeRow } from '../../store/types.js';
import { link, resource } from '../hal.js';
import { isDeletableTemplate, parseTemplateFileName } from './template-file.js';
import {
  assetFileUrl,
  assetsUrl,
  assetUrl,
  previewUrl,
  shopThemesUrl,
  templatesUrl,
  templateUrl,
  themeUrl,
} from './urls.js';

/** A template. */
export function templateResource(a: Addresses, template: TemplateRow): HalResource {
  const parsed = parseTemplateFileName(template.file_name);
  // Stored names were checked on the way in; the fallback only keeps a hand-edited data file readable.
  const derived =
    typeof parsed === 'string'
      ? { name: template.file_name, content_type: 'html' as const }
      : { name: parsed.name, content_type: parsed.content_type };
  const href = templateUrl(a, template.theme_id, template.id);
  const links: Links = { self: link('self', href) };
  links['svc:update_template'] = link('svc:update_template', href);
  if (isDeletableTemplate(template.file_name)) links['svc:delete_template'] = link('svc:delete_template', href);
  return resource(
    ['themeTemplate'],
    {
      id: template.id,
      updated_on: template.updated_on,
      file_name: template.file_name,
      name: derived.name,
      content_type: derived.content_type,
      body: template.body,
    },
    links,
  );
}

/** An asset: a `file` link with its media type and a delete link, no `self`. */
export function assetResource(a: Addresses, asset: AssetRow): HalResource {
  const links: Links = {
    file: link('file', assetFileUrl(a, asset), { type: asset.content_type }),
    'svc:delete_theme_asset': link('svc:delete_theme_asset', assetUrl(a, asset.theme_id, asset.id)),
  };
  return resource(
    ['themeAsset'],
    {
      id: asset.id,
      updated_on: asset.updated_on,
      digest: asset.digest,
      file_size: asset.file_size,
      file_name: asset.file_name,
      content_type: asset.content_type,
    },
    links,
  );
}

/** The other theme of the same shop (production ↔ development), if any. */
function devThemeOf(store: Store, shopId: string): ThemeRow | undefined {
  return store.where('themes', 'shop_id', shopId).find((t) => !t.production);
}

/** A theme with its templates and assets embedded. */
export function themeResource(a: Addresses, store: Store, theme: ThemeRow, shopUrl: string): HalResource {
  const href = themeUrl(a, theme.id);
  const links: Links = {
    self: link('self', href),
    'svc:update_theme': link('svc:update_theme', href),
    'svc:create_template': link('svc:create_template', templatesUrl(a, theme.id)),
    'svc:create_theme_asset': link('svc:create_theme_asset', assetsUrl(a, theme.id)),
    'svc:theme_preview': link('svc:theme_preview', previewUrl(a, theme)),
  };
  const dev = devThemeOf(store, theme.shop_id);
  if (dev) links['svc:dev_theme'] = { ...link('svc:dev_theme', themeUrl(a, dev.id)), title: dev.title };
  else links['svc:create_dev_theme'] = link('svc:create_dev_theme', shopThemesUrl(a, theme.shop_id));
  links['svc:shop'] = link('svc:shop', shopUrl);
  return resource(
    ['theme'],
    {
      id: theme.id,
      title: theme.title,
      production: theme.production,
      settings: theme.settings,
      updated_on: theme.updated_on,
    },
    links,
    {
      templates: store.where('templates', 'theme_id', theme.id).map((t) => templateResource(a, t)),
      assets: store.where('assets', 'theme_id', theme.id).map((x) => assetResource(a, x)),
    },
  );
}
