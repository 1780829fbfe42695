import type { Link as HalLink, HalResource } from '../contract/index.js';
import { UnknownRelationError } from '../errors/unknown-relation-error.js';
import { IF_MATCH_CACHED, type IfMatch } from '../http/transport.js';
import type { Curies } from './curies.js';
import { followPromise } from './follow-promise.js';
import { Link } from './link.js';
import type { Loader } from './loader.js';
import type { Edge, EdgeFor, FollowArgs, FollowOptions, FollowResult, RelationKey, Shape } from './shape.js';

/** How the response that produced an entity went; absent on embedded entities. */
export interface ResponseInfo {
  /** URL of the response, against which relative links resolve. */
  url: string;
  status: number;
  headers: Headers;
  /** True when the server answered 304 and the entity was built from the cached copy. */
  revalidated: boolean;
}

/** A resource the contract does not describe (an unknown `_class`): any field, any relation, untyped. */
export interface UnknownShape {
  fields: Record<string, unknown>;
  embedded: Record<string, UnknownShape>;
  relations: Record<string, Edge<Record<string, unknown> | undefined, Entity>>;
}

/** The entity type of what shape `S` embeds under `K`. */
export type EmbeddedEntity<S extends Shape, K extends keyof S['embedded']> = S['embedded'][K] extends Shape
  ? Entity<S['embedded'][K]>
  : never;

/** The `follow` of a promise of an entity of shape `S`: `Entity.follow`, one hop further. */
export interface FollowFurther<S extends Shape> {
  /**
   * Follows `rel` from the entity this promise resolves to, exactly as its `follow` would (same names, arguments
   * and result), as soon as that entity has arrived. When a hop fails, the promise at the end of the chain rejects
   * with the error of that hop, of the same class, naming the hop in its message and its `hop` property.
   */
  follow<K extends RelationKey<S>>(
    rel: K,
    ...args: FollowArgs<EdgeFor<S, K>>
  ): FollowPromise<FollowResult<EdgeFor<S, K>>>;
}

/**
 * What `follow` and `client.root()` return: a promise of `T` which, when `T` is an entity (a `Results` page
 * included), can `follow` on (see {@link FollowFurther}); a relation that leads to a `Response`, data or nothing
 * ends the chain.
 */
export type FollowPromise<T> = Promise<T> &
  (T extends { readonly [SHAPE]?: infer S extends Shape } ? FollowFurther<S> : unknown);

/** Type-level only: the shape an entity type was made with, which a subclass (`Results`) cannot hide from `infer`. */
declare const SHAPE: unique symbol;

/** An `If-Match` value: one entity tag (strong or weak) or `*`. */
const ENTITY_TAG = /^(?:\*|(?:W\/)?"[^"]*")$/;

/** Member names of a HAL document that are not properties. */
const RESERVED = new Set(['_links', '_embedded', '_class']);

/**
 * A HAL resource: its properties, `_class`, links and embedded resources, and `follow` to move along a relation
 * by name. Typed by shape `S` (see `ShapeOf`); resources of an unknown `_class` are `Entity<UnknownShape>`.
 */
export class Entity<S extends Shape = UnknownShape> {
  // Public fields are declared and set by the constructor: defined fields would be emitted twice in bundles.
  /** The resource's own members (everything but `_links`, `_embedded` and `_class`). */
  declare readonly properties: S['fields'];
  /** Kinds of the resource, e.g. `['theme']` or `['results', 'product']`. */
  declare readonly _class: readonly string[];
  /** The response this entity came from; `undefined` for embedded entities. */
  declare readonly response: ResponseInfo | undefined;
  /** @internal Never set: lets types recover `S` (see `FollowPromise`). */
  declare readonly [SHAPE]?: S;
  readonly #document: HalResource;
  readonly #base: string;
  readonly #curies: Curies;
  readonly #loader: Loader;
  #links?: Map<string, Link[]>;

  /** @internal Entities are made by the client (`root()`, `follow`); see `createClient`. */
  constructor(loader: Loader, document: HalResource, base: string, curies: Curies, response?: ResponseInfo) {
    this.#loader = loader;
    this.#document = document;
    this.#base = base;
    this.#curies = curies;
    this.response = response;
    // A list of strings where present: the document passed the HAL check.
    this._class = document._class ?? [];
    // fromEntries defines members: a JSON `"__proto__"` member stays a property instead of swapping the prototype.
    this.properties = Object.fromEntries(Object.entries(document).filter(([key]) => !RESERVED.has(key))) as S['fields'];
  }

  /** Every link, by relation as written in the document (`curies` excluded). */
  get links(): ReadonlyMap<string, readonly Link[]> {
    if (!this.#links) {
      this.#links = new Map();
      // Every link object has its `href`: the document passed the HAL check when it arrived (or was restored).
      for (const [rel, value] of Object.entries(this.#document._links ?? {})) {
        if (rel === 'curies') continue;
        const list = (Array.isArray(value) ? value : [value]) as HalLink[];
        const links = list.map((link) => new Link(rel, link, this.#base));
        if (links.length) this.#links.set(rel, links);
      }
    }
    return this.#links;
  }

  /** True when the resource has a property or an embedded resource called `name`. */
  has(name: (keyof S['fields'] & string) | (keyof S['embedded'] & string) | (string & {})): boolean {
    return Object.hasOwn(this.properties, name) || Object.hasOwn(this.#document._embedded ?? {}, name);
  }

  /** True when the resource has the relation (under any prefix). Links depend on permissions: check before acting. */
  can(rel: RelationKey<S> | (string & {})): boolean {
    return this.#find(rel) !== undefined;
  }

  /** The (first) link of a relation, found whatever its prefix; throws `UnknownRelationError` listing those present. */
  link(rel: RelationKey<S> | (string & {})): Link {
    const found = this.#find(rel);
    if (!found) throw new UnknownRelationError(rel, [...this.links.keys()], this._class.join(', ') || undefined);
    return found;
  }

  /**
   * The embedded resources called `name` (always a list; empty when absent). Every one is a HAL resource: the
   * client checked the whole document when it arrived (an `InvalidResponseError` otherwise).
   */
  embedded<K extends keyof S['embedded'] & string>(name: K): EmbeddedEntity<S, K>[] {
    const embedded = this.#document._embedded;
    if (!embedded || !Object.hasOwn(embedded, name)) return [];
    const value = embedded[name];
    const list = (Array.isArray(value) ? value : [value]) as HalResource[];
    return list.map((document) => this.#loader.entity(document, this.#base, this.#curies) as EmbeddedEntity<S, K>);
  }

  /**
   * Follows a relation by name (`svc:update_theme`, `update_theme` or its IRI). Template variables are taken
   * from `args`; for a non-GET link the remaining arguments are the JSON body. Resolves to the target entity,
   * a `Results` page, `undefined` for an empty answer (a 204), or the `Response` (body unread) when the link's
   * `type` says the target is not JSON (an HTML page, a file). Rejects with an `InvalidResponseError` naming the
   * URL and the fault when the answer is not that: JSON that is not a HAL resource (no `_links`, an array, a
   * `null` among its embedded resources…), JSON to a link typed otherwise, another type to a link without one. On a typed entity the contract says which; on an
   * entity of unknown `_class` the type assumes an `Entity`: test with `instanceof` when the target may be
   * something else. The promise follows on in the same await, one request per hop:
   * `await shop.follow('svc:theme').follow('svc:dev_theme')` (see `FollowFurther`).
   */
  follow<K extends RelationKey<S>>(
    rel: K,
    ...[args, options]: FollowArgs<EdgeFor<S, K>>
  ): FollowPromise<FollowResult<EdgeFor<S, K>>> {
    const promise = this.#follow(rel, args as Record<string, unknown> | undefined, options);
    const chain = followPromise(promise, { relation: rel, position: 1 });
    return chain as unknown as FollowPromise<FollowResult<EdgeFor<S, K>>>;
  }

  /** The document as received (for serialization). */
  toJSON(): HalResource {
    return this.#document;
  }

  async #follow(rel: string, args: Record<string, unknown> = {}, options: FollowOptions = {}): Promise<unknown> {
    const link = this.link(rel);
    // A GET has no body: an argument its template does not declare is an error (`expand` throws it).
    const strict = options.strictTemplates;
    const { url, unused } =
      link.method === 'GET' ? { url: link.expand(args, strict), unused: {} } : link.resolve(args, strict);
    return this.#loader.load({
      method: link.method,
      url,
      body: Object.keys(unused).length ? unused : undefined,
      accept: link.type ? `${link.type}, */*;q=0.8` : undefined,
      type: link.type,
      signal: options.signal,
      ifMatch: this.#ifMatch(link, url, options.ifMatch),
      maxResponseSize: options.maxResponseSize,
      idempotencyKey: options.idempotencyKey,
      theme: THEME_RELATIONS.has(localName(link.rel)) || (link.rel === 'self' && this._class.includes('theme')),
    });
  }

  /** The `If-Match` that `option` asks for on a write along `link` to `target` (see `FollowOptions.ifMatch`). */
  #ifMatch(link: Link, target: string, option: boolean | string | undefined): IfMatch | undefined {
    if (option === undefined || option === false) return undefined;
    if (link.method === 'GET') {
      throw new TypeError(`ifMatch guards writes; ${link.rel} is followed with GET`);
    }
    if (typeof option === 'string') {
      if (!ENTITY_TAG.test(option)) {
        throw new TypeError(`ifMatch: ${JSON.stringify(option)} is not an entity tag ("…", W/"…" or *)`);
      }
      return option;
    }
    if (!this.#isAt(target)) return IF_MATCH_CACHED;
    // Only the entity's own response vouches for what it shows; the cache may hold a newer or older copy.
    const etag = this.response?.headers.get('etag');
    // Sending nothing would leave the caller believing the write is guarded.
    if (!etag) {
      const what = this.response ? 'its response had none' : 'an embedded entity has none';
      throw new TypeError(
        `ifMatch: true needs this entity's ETag, and ${what}: read it with follow('self') first, or pass the tag`,
      );
    }
    return etag;
  }

  /** True when `url` is this resource: its `self` or the URL its representation was read from. */
  #isAt(url: string): boolean {
    const self = this.links.get('self')?.[0];
    return url === this.response?.url || (self?.templated === false && self.resolve().url === url);
  }

  /** Exact name first, then the same IRI through the curies in scope, then the same name without prefix. */
  #find(rel: string): Link | undefined {
    const links = this.links;
    const exact = links.get(rel)?.[0];
    if (exact) return exact;
    const iri = this.#curies.expand(rel);
    const local = localName(rel);
    let byLocal: Link | undefined;
    for (const [name, list] of links) {
      if (iri !== undefined && this.#curies.expand(name) === iri) return list[0];
      if (!byLocal && localName(name) === local) byLocal = list[0];
    }
    return byLocal;
  }
}

/** Relations whose answer may be a whole theme, templates and bodies embedded (a subject may be one). */
const THEME_RELATIONS = new Set(['theme', 'dev_theme', 'create_dev_theme', 'update_theme', 'subject']);

/** `update_theme` for `svc:update_theme` or `update_theme`, whether the prefix is declared or not; IRIs stay whole. */
function localName(rel: string): string {
  return rel.replace(/^[a-z_][\w.-]*:(?!\/\/)/i, '');
}
