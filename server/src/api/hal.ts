/**
 * Building HAL representations: links from the relation registry, curies, resources, documents. A resource is
 * built against the SDK's contract (`Representations`): its fields are exactly the contract's, its links are
 * relations the contract gives it, and what it embeds is the representation the contract names, so that a field
 * or relation renamed in the contract fails the server's compilation instead of its clients.
 */
import type {
  Curie,
  HalResource,
  Link,
  Links,
  RepresentationName,
  Representations,
  ResultsFields,
  ResultsRelations,
} from '@storefront-platform/sdk/internal';
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

declare const REPRESENTATION: unique symbol;

/** A built representation `N` of the contract: what `_embedded` members and results' items are checked against. */
export type Hal<N extends RepresentationName> = HalResource & { readonly [REPRESENTATION]?: N };

/** The fields of representation `N`, as the contract declares them. */
export type FieldsOf<N extends RepresentationName> = Representations[N]['fields'];

/** The links representation `N` may carry: its relations in the contract, each present or not. */
export type LinksOf<N extends RepresentationName> = {
  [R in keyof Representations[N]['relations']]?: Link;
};

/** What representation `N` embeds: each member the contract names, holding the representations it names. */
export type EmbeddedOf<N extends RepresentationName> = {
  [K in keyof Representations[N]['embedded']]: Hal<Representations[N]['embedded'][K] & RepresentationName>[];
};

/** `F` when it has no member `T` lacks (TypeScript checks excess members of literals only). */
type Exactly<F, T> = F & { [K in Exclude<keyof F, keyof T>]: never };

/** Each representation's `_class`: the compiler holds every entry to the contract's. */
export const CLASS_OF: { readonly [N in RepresentationName]: Representations[N]['class'] } = {
  root: 'root',
  shopSummary: 'shop',
  shop: 'shop',
  productSummary: 'product',
  product: 'product',
  productVariant: 'productVariant',
  orderSummary: 'order',
  order: 'order',
  orderLineItem: 'orderLineItem',
  theme: 'theme',
  themeTemplate: 'themeTemplate',
  themeAsset: 'themeAsset',
  event: 'event',
  webhookEndpoint: 'webhookEndpoint',
  webhookDelivery: 'webhookDelivery',
};

/**
 * Representation `name` of the contract with its members in the usual order: `_class`, fields, `_links`,
 * `_embedded`. Parts of a resource that are not resources of their own (a variant, a line item) have no links.
 */
export function resource<N extends RepresentationName, F extends FieldsOf<N>>(
  name: N,
  fields: Exactly<F, FieldsOf<N>>,
  links?: LinksOf<N>,
  embedded?: EmbeddedOf<N>,
): Hal<N> {
  const out: HalResource = { _class: [CLASS_OF[name]], ...fields };
  if (links) out._links = links as Links;
  if (embedded) out._embedded = embedded as Record<string, HalResource[]>;
  return out;
}

/** The links of a results entity: its paging relations. */
export type ResultsLinks = { [R in keyof ResultsRelations]?: Link };

/** A results entity (wire contract, "Results entities"): one page of representations `name`, as `items`. */
export function results<N extends RepresentationName>(
  name: N,
  fields: Exactly<ResultsFields, ResultsFields>,
  links: ResultsLinks,
  items: readonly Hal<NoInfer<N>>[],
): HalResource {
  return { _class: ['results', CLASS_OF[name]], ...fields, _links: links as Links, _embedded: { items: [...items] } };
}

/**
 * The entity of a top-level HAL document (any response body but an error): `document` with the `curies`
 * that expand its `svc:` relations leading its `_links`. Embedded resources inherit them, so they carry none.
 */
export function halEntity(addresses: Addresses, document: HalResource, lastModified: number): Entity {
  return jsonEntity({ ...document, _links: { curies: curies(addresses), ...document._links } }, lastModified);
}
