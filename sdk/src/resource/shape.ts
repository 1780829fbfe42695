/**
 * The type-level view of entities, whatever their kind: what a shape holds and how `follow` reads its relations.
 * Type-only: nothing here exists at runtime. The shapes that name the entity classes are declared beside them
 * (`UnknownShape`, `ResultsShape`) or after them (`ShapeOf`, in `./shape-of.ts`), so that the classes import
 * these types and not the other way round.
 */

/**
 * One relation as `follow` sees it: the arguments it takes (template variables and body), what it returns, and its
 * method as the contract says it (`'get'`, `'put'`, …; any `string` when unknown, as for an untyped entity), so that
 * code on top (the React bindings) can tell reads from writes.
 */
export interface Edge<A, R, M extends string = string> {
  args: A;
  result: R;
  method: M;
}

/** What an entity's type knows: its fields, what it embeds (name → shape) and its relations (name → edge). */
export interface Shape {
  fields: object;
  embedded: object;
  relations: object;
}

type Unprefixed<K> = K extends `${string}:${infer Local}` ? Local : never;

/** Names `follow` accepts on shape `S`: each relation as declared (`svc:update_theme`) and without its prefix. */
export type RelationKey<S extends Shape> = (keyof S['relations'] & string) | Unprefixed<keyof S['relations'] & string>;

/** The edge a relation name (prefixed or not) designates on shape `S`. */
export type EdgeFor<S extends Shape, K extends string> = K extends keyof S['relations']
  ? S['relations'][K]
  : { [P in keyof S['relations']]: P extends `${string}:${K}` ? S['relations'][P] : never }[keyof S['relations']];

/** Per-call options of `follow`. */
export interface FollowOptions {
  /** Aborts the request (and the retries, and a page walk). */
  signal?: AbortSignal;
  /**
   * Guards a write (PUT, POST, DELETE) against lost updates with `If-Match`: when the resource changed since the
   * copy the write is based on, the server answers 412 and the promise rejects with `PreconditionFailedError`.
   *
   * - `true`: when the write targets the entity it is followed from (its `self`, or the URL it was read from), the
   *   `ETag` of the response that entity was built from, whichever URL served it. When the write targets
   *   another resource, the `ETag` of the client's cached copy of that target (with a `cache`). Without such an
   *   `ETag` (an embedded entity comes with none: read it with `follow('self')` first, or pass the tag) `follow`
   *   throws a `TypeError` before sending anything, rather than write unguarded.
   * - a string: this entity tag, sent as is (`"…"`, `W/"…"` or `*`).
   * - `false` or absent: no `If-Match`.
   *
   * @example
   * ```ts
   * await theme.follow('svc:update_theme', { title: 'Spring' }, { ifMatch: true });
   * ```
   */
  ifMatch?: boolean | string;
  /**
   * `false` expands the link's URI template exactly as RFC 6570 says: a path variable (`{id}`, `{+path}`, `{/id}`,
   * `{.ext}`) left out, `null`, `''` or an empty list or map expands to nothing. By default (`true`) such a variable
   * is a `TemplateVariableError` instead, since `/products/` in place of `/products/{id}` names another resource.
   * Form-style (`{?q}`, `{&q}`), `{;x}` and `{#x}` variables are optional either way.
   */
  strictTemplates?: boolean;
  /**
   * The most bytes read of this answer, when fewer than the client's `maxResponseSize`: a larger one fails with a
   * `ResponseTooLargeError`, read no further. For a download whose size the app knows a bound of (the bytes of an
   * asset, at most 1 MiB), which the raw `Response` would otherwise read up to the client's limit.
   */
  maxResponseSize?: number;
  /**
   * The `Idempotency-Key` of a POST (draft-ietf-httpapi-idempotency-key-header): by default a new random key per
   * call, the same on each of its retries, so that a retry of a create whose answer was lost gets that answer
   * instead of creating twice. Pass your own to carry one logical request across calls (an app that restarts and
   * sends a queued create again, with the key it stored beside it): printable ASCII, 1 to 255 characters. Ignored on
   * other methods.
   */
  idempotencyKey?: string;
}

type ArgsOfEdge<E> = E extends Edge<infer A, infer _R> ? A : never;

/** `follow`'s parameters after the relation name: arguments (required when the relation has required ones), options. */
export type FollowArgs<E> =
  undefined extends ArgsOfEdge<E>
    ? [args?: ArgsOfEdge<E>, options?: FollowOptions]
    : Partial<ArgsOfEdge<E>> extends ArgsOfEdge<E>
      ? [args?: ArgsOfEdge<E>, options?: FollowOptions]
      : [args: ArgsOfEdge<E>, options?: FollowOptions];

/** What `follow` resolves to for edge `E`. */
export type FollowResult<E> = E extends Edge<infer _A, infer R> ? R : never;
