/**
 * What an unsafe request invalidates, without scanning the store (an async store such as Redis or IndexedDB
 * cannot be scanned cheaply). Every stored entry is tagged with the resources it shows; a write names the
 * resources it may have changed; entries sharing a tag with the write are dropped.
 *
 * A tag is a resource path without query and without the `.json`/`.jsonp` suffix the API accepts on any GET,
 * so `/v1/shops/7/theme.json` and `/v1/shops/7/theme` are one resource and every page of a list is one tag.
 *
 * An entry's tags: its own path, its `self` link (the shop's `theme.json` is the theme `/v1/themes/3`), and the
 * `self` of every resource it embeds (a product list shows the products it lists).
 *
 * A write to a path touches: that path; every ancestor path (`/v1/themes/3/templates/9` touches
 * `/v1/themes/3/templates`, `/v1/themes/3`, `/v1/themes`, `/v1`); and every top-level list of the same kind
 * (`/v1/shops/7/products/5` also touches `/v1/products`, the all-products list), so that a creation, which no
 * cached list embeds yet, still drops the lists it will appear in.
 */

import { isJsonType } from '../http/media-type.js';

const SUFFIX = /\.jsonp?$/;

/** The tag of an absolute URL: origin + path without query, trailing slash or `.json`/`.jsonp`. */
export function resourceTag(url: string | URL): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '').replace(SUFFIX, '');
  return parsed.origin + (path || '/');
}

/** The `href` of a document's (first) `self` link, when it has one: a write's answer, a stored list's items. */
export function selfHref(resource: unknown): string | undefined {
  const self = (resource as { _links?: { self?: unknown } } | null | undefined)?._links?.self;
  const link = Array.isArray(self) ? self[0] : self;
  const href = (link as { href?: unknown } | undefined)?.href;
  return typeof href === 'string' ? href : undefined;
}

/** The tags of a stored response: its URL, its `self` and the `self` of each embedded resource. */
export function entryTags(url: string, body: string, contentType: string | undefined): string[] {
  const tags = new Set([resourceTag(url)]);
  if (!isJsonType(contentType)) return [...tags];
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return [...tags];
  }
  const origin = new URL(url).origin;
  const add = (href: string | undefined) => {
    if (href === undefined) return;
    try {
      const resolved = new URL(href, url);
      // Another origin's resources are never written through this API: nothing would invalidate them.
      if (resolved.origin === origin) tags.add(resourceTag(resolved));
    } catch {
      // A malformed href names nothing we could invalidate.
    }
  };
  add(selfHref(document));
  // Whatever `_embedded` is: only the objects among its values have a `self`.
  for (const value of Object.values((document as { _embedded?: object } | null)?._embedded ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) add(selfHref(item));
  }
  return [...tags];
}

/** The tags a write to `url` may have changed: the resource, the collections above it, same-kind top-level lists. */
export function touchedTags(url: string): string[] {
  const parsed = new URL(url);
  const segments = resourceTag(parsed).slice(parsed.origin.length).split('/').filter(Boolean);
  const tags = new Set<string>();
  const at = (parts: readonly string[]) => `${parsed.origin}/${parts.join('/')}`;
  for (let end = segments.length; end >= 0; end--) {
    const path = segments.slice(0, end);
    tags.add(at(path));
    const kind = path[path.length - 1];
    if (kind === undefined) continue;
    for (let prefix = 0; prefix < end - 1; prefix++) tags.add(at([...segments.slice(0, prefix), kind]));
  }
  return [...tags];
}
