/** Where a relation is documented: its curie expanded (`svc:update_theme` → `{origin}/rels/update_theme`). */
import type { HalResource } from 'storefront-sdk';

/** The curies of a document: prefix → template with `{rel}`. */
export type Curies = ReadonlyMap<string, string>;

export function curiesOf(document: HalResource, base: string): Curies {
  const list = document._links?.curies;
  const curies = new Map<string, string>();
  for (const curie of Array.isArray(list) ? list : []) {
    if (curie?.name && curie.href) curies.set(curie.name, new URL(curie.href, base).href.replace('%7Brel%7D', '{rel}'));
  }
  return curies;
}

/** The documentation page of `rel`; `undefined` for a relation without a declared prefix (IANA's, e.g. `next`). */
export function docsUrl(rel: string, curies: Curies): string | undefined {
  const colon = rel.indexOf(':');
  const template = colon > 0 ? curies.get(rel.slice(0, colon)) : undefined;
  return template?.replace('{rel}', encodeURIComponent(rel.slice(colon + 1)));
}
