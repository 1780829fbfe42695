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
