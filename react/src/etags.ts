import type { Entity } from '@storefront-platform/sdk';

/**
 * What an entity restored from a dehydrated state lost with its response: the URL and `ETag` it was read with. The
 * SDK's `restore` takes a document only; these keep a hydrated editor's `ifMatch` and a second dehydration working.
 */
const restored = new WeakMap<Entity, { url: string; etag: string | undefined }>();

export function rememberOrigin(entity: Entity, url: string, etag: string | undefined): void {
  restored.set(entity, { url, etag });
}

/** The URL and `ETag` an entity was read with, from its response or from its dehydrated state. */
export function originOf(entity: Entity): { url: string | undefined; etag: string | undefined } {
  const { response } = entity;
  if (response) return { url: response.url, etag: response.headers.get('etag') ?? undefined };
  return restored.get(entity) ?? { url: undefined, etag: undefined };
}

/**
 * The versions one `useAction`'s guarded writes replaced: `url etag` → the `ETag` the write answered with. A save
 * queued behind another from the same copy (two quick saves) is then guarded by the version the first one made, not
 * refused with a 412 against the user's own save. Kept per hook, not per client: a write of another component from an
 * older copy still meets its 412 (else it would overwrite this one's change), as does one after someone else's.
 */
export type WriteChain = Map<string, string>;

/**
 * The `ETag` of `url` after the chain's writes since version `etag` (`etag` itself when none). A chain that does not
 * start at `etag` is of a copy read before this one: it is forgotten, so a chain holds one run of quick saves.
 */
export function chainedEtag(chain: WriteChain, url: string, etag: string): string {
  if (!chain.has(`${url} ${etag}`)) chain.clear();
  // Visited versions end the walk: writing a body back gives its former ETag again.
  const seen = new Set<string>();
  let current = etag;
  for (let next = chain.get(`${url} ${current}`); next !== undefined && !seen.has(current); ) {
    seen.add(current);
    current = next;
    next = chain.get(`${url} ${current}`);
  }
  return current;
}
