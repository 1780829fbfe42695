/**
 * Where a relation is documented: its curie expanded (`svc:update_theme` → `{origin}/rels/update_theme`) by the
 * SDK's own curie handling, the one its navigation matches relations with.
 */
import type { HalResource } from '@storefront-platform/sdk';
import { Curies } from '@storefront-platform/sdk/internal';

export type { Curies };

/** The curies `document` declares, their templates resolved against `base` (the document's URL). */
export function curiesOf(document: HalResource, base: string): Curies {
  return Curies.of(document._links?.curies, base);
}

/** The documentation page of `rel`; `undefined` for a relation without a declared prefix (IANA's, e.g. `next`). */
export function docsUrl(rel: string, curies: Curies): string | undefined {
  // Only a compact name has a page: `expand` also gives back a relation that is already an absolute IRI.
  return curies.split(rel) ? curies.expand(rel) : undefined;
}
