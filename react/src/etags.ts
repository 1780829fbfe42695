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
 * Per client, the versions its own guarded writes replaced: `url etag` → the `ETag` the write answered with. A write
 * queued behind another of the same copy (two quick saves) is then guarded by the version the first one made, not
 * refused with a 412 against the user's own save; a version someone else made breaks the chain, and still fails.
 */
const replaced = new WeakMap<object, Map<string, string>>();

export function rememberWrite(client: object, url: string, from: string, to: string): void {
  const writes = replaced.get(client) ?? new Map<string, string>();
  replaced.set(client, writes);
  writes.set(`${url} ${from}`, to);
}

/** The `ETag` of `url` after this client's own writes since version `etag` (`etag` itself when none). */
export function ownLatest(client: object, url: string, etag: string): string {
  const writes = replaced.get(client);
  // Visited versions end the walk: writing a body back gives its former ETag again.
  const seen = new Set<string>();
  let current = etag;
  for (let next = writes?.get(`${url} ${current}`); next !== undefined && !seen.has(current); ) {
    seen.add(current);
    current = next;
    next = writes?.get(`${url} ${current}`);
  }
  return current;
}
