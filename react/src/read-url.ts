import type { Entity } from '@storefront-platform/sdk';
import type { StorefrontClient } from './client.js';

/**
 * A GET of `url` through the client, as an entity: the SDK reads documents by following links, so a document whose
 * one link is `self` stands for the address. The answer goes through the client's cache, auth and errors alike.
 */
export function readUrl(client: StorefrontClient, url: string, signal?: AbortSignal): Promise<Entity> {
  return client.restore<Entity>({ _links: { self: { href: url } } }, url).follow('self', undefined, { signal });
}
