/**
 * Theme files on `{static_url}`, open without a token like any storefront's files: an asset's bytes at
 * its immutable `file` address, and the preview folder of a theme (its layout as index, then every
 * template and asset by file name). The preview page is the theme's `layout.html` with a `<base href>` at the
 * top of its head, so that every relative reference (stylesheets, scripts, images, and the stylesheets' own
 * `url(…)`s) resolves under the preview folder.
 */
import { documentEntity, type Entity } from '../../http/entity.js';
import { escapeHtml } from '../../http/html.js';
import { notFound } from '../../http/http-error.js';
import type { Call, Reply, Route } from '../../http/route.js';
import type { AssetRow, TemplateRow, ThemeRow } from '../../store/types.js';
import { assetFileEntity } from './representations.js';
import { LAYOUT_FILE_NAME, parseTemplateFileName } from './template.js';
import { isPreviewKey } from './theme.js';
import { previewUrl } from './urls.js';

const HEAD = /<head(?:\s[^>]*)?>/i;
const DOCTYPE = /^\s*<!doctype[^>]*>/i;

/** `layout` with `<base href="folder">` as the first element of its head (or of the document without one). */
export function previewPage(layout: string, folder: string): string {
  const base = `<base href="${escapeHtml(folder)}">`;
  const head = HEAD.exec(layout);
  if (head) return layout.slice(0, head.index + head[0].length) + base + layout.slice(head.index + head[0].length);
  // Without a head, after the doctype: anything before it would put the browser in quirks mode.
  const doctype = DOCTYPE.exec(layout);
  const at = doctype ? doctype[0].length : 0;
  return layout.slice(0, at) + base + layout.slice(at);
}

type OpenCall = Call<undefined>;

const TEXT_TYPES = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};
const YEAR = 'public, max-age=31536000, immutable';
/** Preview files change with the theme: always revalidated, answered 304 while unchanged. */
const REVALIDATE = 'no-cache';
/**
 * Theme HTML runs in a sandbox (an opaque origin): its scripts work, but cannot act as the server's origin.
 * SVG files get the same, without scripts, in case one is opened directly.
 */
const HTML_POLICY = 'sandbox allow-scripts allow-forms allow-popups';
const SVG_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

function fileHeaders(contentType: string, cacheControl: string): Record<string, string> {
  const headers: Record<string, string> = { 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' };
  if (contentType.startsWith('text/html')) headers['content-security-policy'] = HTML_POLICY;
  else if (contentType.startsWith('image/svg+xml')) headers['content-security-policy'] = SVG_POLICY;
  return headers;
}

function fileReply(entity: Entity, cacheControl: string): Reply {
  return { entity, headers: fileHeaders(entity.contentType, cacheControl) };
}

function findAsset(call: OpenCall, themeId: string, fileName: string): AssetRow | undefined {
  return call.context.store.where('assets', 'theme_id', themeId).find((a) => a.file_name === fileName);
}

function findTemplate(call: OpenCall, themeId: string, fileName: string): TemplateRow | undefined {
  return call.context.store.where('templates', 'theme_id', themeId).find((t) => t.file_name === fileName);
}

function templateFileEntity(call: OpenCall, theme: ThemeRow, template: TemplateRow): Entity {
  const { store, addresses } = call.context;
  // The preview address in the layout's <base> never changes for a theme: templates are the only input.
  return call.cache.cached(`preview-file:${template.id}`, [store.revision('templates')], () => {
    const current = store.get('templates', template.id) ?? template;
    const parsed = parseTemplateFileName(current.file_name);
    const type = typeof parsed === 'string' ? 'text/plain; charset=utf-8' : TEXT_TYPES[parsed.content_type];
    const body =
      current.file_name === LAYOUT_FILE_NAME ? previewPage(current.body, previewUrl(addresses, theme)) : current.body;
    return documentEntity(body, type, Date.parse(current.updated_on));
  });
}

/** The theme whose preview folder this is; a wrong key is a 404 like an unknown theme. */
function previewTheme(call: OpenCall): ThemeRow {
  const theme = call.context.store.get('themes', call.params.theme_id!);
  if (!theme || !isPreviewKey(theme, call.params.key!)) throw notFound('No such preview');
  return theme;
}

function previewFile(call: OpenCall, fileName: string): Reply {
  const theme = previewTheme(call);
  const template = findTemplate(call, theme.id, fileName);
  if (template) return fileReply(templateFileEntity(call, theme, template), REVALIDATE);
  const asset = findAsset(call, theme.id, fileName);
  if (asset) return fileReply(assetFileEntity(call.cache, call.context.store, asset), REVALIDATE);
  throw notFound(`No file ${fileName} in this theme`);
}

/** Routes of theme files on the static mount (`{static_url}`). */
export const staticRoutes: Route[] = [
  {
    method: 'GET',
    path: '/themes/:theme_id/assets/:digest/*file_name',
    scope: null,
    handle(call) {
      // The rest of the path is still percent-encoded but for `%2F`; stored names never contain `%`, so any other
      // encoded character misses.
      const asset = findAsset(call, call.params.theme_id!, call.params.file_name!);
      if (!asset || asset.digest !== call.params.digest) throw notFound('No such file');
      return fileReply(assetFileEntity(call.cache, call.context.store, asset), YEAR);
    },
  },
  {
    method: 'GET',
    path: '/themes/:theme_id/preview/:key',
    scope: null,
    handle: (call) => previewFile(call, LAYOUT_FILE_NAME),
  },
  {
    method: 'GET',
    path: '/themes/:theme_id/preview/:key/*file_name',
    scope: null,
    handle: (call) => previewFile(call, call.params.file_name!),
  },
];
