/**
 * The relation registry's shape. One table per domain (this directory's {@link coreRelations}, the themes'
 * `themeRelations`) drives both the links the server emits and the `/rels/{rel}` documentation pages, and is
 * typed against the SDK's contract so that a relation cannot exist on one side only.
 */
import type { LinkMethod, RelationName, RepresentationName } from '@storefront-platform/sdk/internal';

/** The curied relation names (`svc:…`) of some representations. */
type SvcRelationOf<R extends RepresentationName> = Extract<{ [N in R]: RelationName<N> }[R], `svc:${string}`>;

/**
 * Which domain's table documents the relations of each representation of the contract, those without `svc:`
 * relations included: a new representation must be placed here (see {@link Placed}), so that its relations are
 * asked of the table that owns them, never of one by default.
 */
interface RelationDomains {
  core:
    | 'root'
    | 'shop'
    | 'shopSummary'
    | 'product'
    | 'productSummary'
    | 'productVariant'
    | 'order'
    | 'orderSummary'
    | 'orderLineItem';
  theme: 'theme' | 'themeTemplate' | 'themeAsset';
  events: 'event' | 'webhookEndpoint' | 'webhookDelivery';
}

/** `R`, if {@link RelationDomains} places every one of them: otherwise a type error naming those it does not. */
type Placed<R extends RelationDomains[keyof RelationDomains]> = R;

/** Every curied relation name of the contract. */
export type SvcRelationName = SvcRelationOf<Placed<RepresentationName>>;

/** The root's links to events and webhook endpoints, which the events' table documents with theirs. */
type RootEventRelationName = 'svc:events' | 'svc:event' | 'svc:webhook_endpoints' | 'svc:create_webhook_endpoint';

/** Relations of the root, shops, products and orders: documented in `./relations.ts`. */
export type CoreRelationName = Exclude<SvcRelationOf<RelationDomains['core']>, RootEventRelationName>;

/**
 * Relations of events, webhook endpoints and deliveries, and the root's links to them, but for those a core
 * representation has too (`svc:shop`): documented in `./events/relations.ts`.
 */
export type EventRelationName = Exclude<
  SvcRelationOf<RelationDomains['events']> | RootEventRelationName,
  CoreRelationName
>;

/**
 * Relations of themes, templates and assets, but for those a core representation has too (`svc:shop`):
 * documented in `./themes/relations.ts`.
 */
export type ThemeRelationName = Exclude<SvcRelationOf<RelationDomains['theme']>, CoreRelationName>;

/** What the registry knows about one relation. */
export interface RelationEntry {
  /** Verb to follow it with; `get` is left out of links (absent means GET). */
  method: 'get' | LinkMethod;
  /** Copied into the link's `title` where the wire contract shows one. */
  title?: string;
  /** Media type of the target when it is not JSON; copied into the link's `type`. */
  type?: string;
  /** One sentence for the documentation page: what the relation is for. */
  summary: string;
  /** What the target is (a representation, a results entity, a document), for the documentation page. */
  target: string;
  /** The request body, when the relation takes one. */
  payload?: string;
  /** A sample exchange (request line, body, response status) for the documentation page. */
  example: string;
}

/** A domain's part of the registry. */
export type RelationTable<K extends SvcRelationName> = { readonly [N in K]: RelationEntry };
