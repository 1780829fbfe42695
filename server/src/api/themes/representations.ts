/**
 * The HAL representations of themes, templates and assets (spec §2.3–2.5), with the links the wire contract
 * gives each, and their entities: serialised and hashed once per change through the core's representation cache,
 * keyed by the store revisions they are built from. Every theme read needs the shop administrator's admin token,
 * so a representation does not vary by caller and one cached entity serves every request. An asset's file is an
 * entity too: its bytes, checked once per change, validated by their MD5 digest.
 */
import type { Addresses } from '../../core/types.js';
import type { Validators } from '../../http/conditional.js';
import type { Entity } from '../../http/entity.js';
import { toSeconds } from '../../http/http-date.js';
import { notFound } from '../../http/http-error.js';
import type { RepresentationCache } from '../../http/representation-cache.js';
import type { Call } from '../../http/route.js';
import type { AssetRow, Store, TemplateRow, ThemeRow } from '../../store/types.js';
import { type Hal, halEntity, type LinksOf, link, resource } from '../hal.js';
import { shopUrl } from '../urls.js';
import { describeAsset, storedAssetBytes } from './asset.js';
import { isDeletableTemplate, parseTemplateFileName } from './template.js';
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
export function templateResource(a: Addresses, template: TemplateRow): Hal<'themeTemplate'> {
  const parsed = parseTemplateFileName(template.file_name);
  // Stored names were checked on the way in; the fallback only keeps a hand-edited data file readable.
  const derived =
    typeof parsed === 'string'
      ? { name: template.file_name, content_type: 'html' as const }
      : { name: parsed.name, content_type: parsed.content_type };
  const href = templateUrl(a, template.theme_id, template.id);
  const links: LinksOf<'themeTemplate'> = { self: link('self', href) };
  links['svc:update_template'] = link('svc:update_template', href);
  if (isDeletableTemplate(template.file_name)) links['svc:delete_template'] = link('svc:delete_template', href);
  return resource(
    'themeTemplate',
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
export function assetResource(a: Addresses, asset: AssetRow): Hal<'themeAsset'> {
  const links: LinksOf<'themeAsset'> = {
    file: link('file', assetFileUrl(a, asset), { type: asset.content_type }),
    'svc:delete_theme_asset': link('svc:delete_theme_asset', assetUrl(a, asset.theme_id, asset.id)),
  };
  return resource(
    'themeAsset',
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
function devThemeOf(store: Pick<Store, 'where'>, shopId: string): ThemeRow | undefined {
  return store.where('themes', 'shop_id', shopId).find((t) => !t.production);
}

/** A theme with its templates and assets embedded; `store` may be a write's transaction, to see its changes. */
export function themeResource(
  a: Addresses,
  store: Pick<Store, 'where'>,
  theme: ThemeRow,
  shopUrl: string,
): Hal<'theme'> {
  const href = themeUrl(a, theme.id);
  const links: LinksOf<'theme'> = {
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
    'theme',
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
export function assetFileValidators(asset: AssetRow): Validators {
  return {
    contentType: asset.content_type,
    etag: `"${asset.digest}"`,
    lastModified: toSeconds(Date.parse(asset.updated_on)),
  };
}
