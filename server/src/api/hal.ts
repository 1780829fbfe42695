/** Building HAL representations: links from the relation registry, curies, resources, documents. */
import type { Curie, HalResource, Link, Links } from '@storefront-platform/sdk/internal';
import type { Addresses } from '../core/types.js';
import { type Entity, jsonEntity } from '../http/entity.js';
import { relationEntry } from './registry.js';
import type { SvcRelationName } from './relation-entry.js';

/** Relations without a curie prefix: the resource itself, an asset's file, and the IANA paging relations. */
export type PlainRelationName = 'self' | 'file' | 'next' | 'prev' | 'first' | 'last';

/** What a call site adds to a link besides what the registry says. */
export interface LinkOptions {
  templated?: boolean;
  /** Media type of the target, for relations whose type varies (an asset's `file`). */
  type?: string;
}

/** A link object for `rel`: `method`, `title` and `type` come from the registry. */
export function link(rel: SvcRelationName | PlainRelationName, href: string, options?: LinkOptions): Link {
  const out: Link = { href };
  const entry = relationEntry(rel);
  if (entry) {
    if (entry.method !== 'get') out.method = entry.method;
    if (entry.title) out.title = entry.title;
    if (entry.type) out.type = entry.type;
  }
  if (options?.templated) out.templated = true;
  if (options?.type) out.type = options.type;
  return out;
}

/** The `curies` member: `svc:` expands to the relation's documentation page. */
function curies(addresses: Addresses): Curie[] {
  return [{ name: 'svc', href: `${addresses.origin}/rels/{rel}`, templated: true }];
}

/**
 * A HAL resource with its members in the usual order: `_class`, fields, `_links`, `_embedded`.
 * Parts of a resource that are not resources of their own (a variant, a line item) have no links.
 */
export function resource(
  classes: string[],
  fields: object,
  links?: Links,
  embedded?: Record<string, HalResource[]>,
): HalResource {
  const out: HalResource = { _class: classes, ...fields };
  if (links) out._links = links;
  if (embedded) out._embedded = embedded;
  return out;
}

/**
 * The entity of a top-level HAL document (any response body but an error): `document` with the `curies`
 * that expand its `svc:` relations leading its `_links`. Embedded resources inherit them, so they carry none.
 */
export function halEntity(addresses: Addresses, document: HalResource, lastModified: number): Entity {
  return jsonEntity({ ...document, _links: { curies: curies(addresses), ...document._links } }, lastModified);
}
