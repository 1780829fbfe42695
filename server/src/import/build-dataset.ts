/**
 * The data set of an import, from the rows the walk read: the demo user and app in place of the source's, the
 * themes' preview keys derived, every source address rewritten to the sandbox's, every collection in one stable
 * order (by id, as the JSON store loads them), so that the same source gives the same bytes. With a data set to
 * update (`--since`), the shops not read this time keep their rows from it.
 */
import { assetFileUrl, previewUrl } from '../api/themes/urls.js';
import { addressesOf } from '../core/addresses.js';
import { emptyDataset } from '../store/collections.js';
import { sortById } from '../store/json/json-collections.js';
import type { Dataset } from '../store/types.js';
import { type DemoAccess, previewKeyOf } from './demo-access.js';
import { OriginRewriter } from './origins.js';
import type { Walked } from './walk.js';

/** What the data set is built from. */
export interface BuildInput {
  walked: Walked;
  /** The source API's root URL. */
  source: string;
  /** The sandbox's origin, which replaces the source's addresses. */
  origin: string;
  demo: DemoAccess;
  /** The data set being updated, if any. */
  base?: Dataset;
}

/** The source's addresses → the sandbox's, for `walked`'s files and pages and the API itself. */
function rewriterOf({ walked, source, origin }: BuildInput): OriginRewriter {
  const sandbox = addressesOf(origin);
  const rewriter = new OriginRewriter();
  for (const [href, link] of walked.links) {
    const to = link.kind === 'asset' ? assetFileUrl(sandbox, link.row) : previewUrl(sandbox, link.row);
    rewriter.map(href, to);
    // The file name's `/` is written either way (`images%2Flogo.png`, `images/logo.png`).
    rewriter.map(href.replaceAll('%2F', '/'), to);
    rewriter.mapOrigin(href, sandbox.origin);
  }
  rewriter.map(source.replace(/\/$/, ''), sandbox.baseUrl);
  rewriter.mapOrigin(source, sandbox.origin);
  return rewriter;
}

/** The imported data set. */
export function buildDataset(input: BuildInput): Dataset {
  const { walked, source, demo, base } = input;
  for (const theme of walked.data.themes) {
    theme.preview_key = previewKeyOf(source, theme.id, demo.credentials.clientSecret);
  }
  const rewriter = rewriterOf(input);
  const data = emptyDataset();
  data.users = [demo.user];
  data.apps = [demo.app];
  const read = walked.data;
  const readShops = new Set(read.shops.map((shop) => shop.id));
  // Kept from the data set being updated: the shops not read this time, and what belongs to them.
  const keptShops = (base?.shops ?? []).filter((shop) => !readShops.has(shop.id));
  const kept = new Set(keptShops.map((shop) => shop.id));
  const keptThemes = (base?.themes ?? []).filter((theme) => kept.has(theme.shop_id));
  const keptThemeIds = new Set(keptThemes.map((theme) => theme.id));
  const keptAssets = (base?.assets ?? []).filter((asset) => keptThemeIds.has(asset.theme_id));
  const keptAssetIds = new Set(keptAssets.map((asset) => asset.id));
  const rewrite = <R>(rows: readonly R[]) => rows.map((row) => rewriter.value(row));
  data.shops = sortById([...keptShops, ...rewrite(read.shops)]);
  data.products = sortById([
    ...(base?.products ?? []).filter((row) => kept.has(row.shop_id)),
    ...rewrite(read.products),
  ]);
  data.orders = sortById([...(base?.orders ?? []).filter((row) => kept.has(row.shop_id)), ...rewrite(read.orders)]);
  data.themes = sortById([...keptThemes, ...rewrite(read.themes)]);
  data.templates = sortById([
    ...(base?.templates ?? []).filter((row) => keptThemeIds.has(row.theme_id)),
    ...rewrite(read.templates),
  ]);
  data.assets = sortById([...keptAssets, ...rewrite(read.assets)]);
  // Bytes as they are: rewriting them would change their digest.
  data.files = sortById([...(base?.files ?? []).filter((row) => keptAssetIds.has(row.id)), ...read.files]);
  return data;
}
