import { Entity, type HalResource } from '@storefront-platform/sdk';
import {
  type DehydratedState,
  type DehydrateOptions,
  dehydrate,
  HydrationBoundary,
  type QueryClient,
} from '@tanstack/react-query';
import { createElement, type ReactNode, useMemo } from 'react';
import { hydrateCache, type StorefrontClient } from './client.js';
import { useClient } from './context.js';
import { originOf, rememberOrigin } from './etags.js';

/** An entity in a dehydrated state: its document, the URL its links resolve against, its `ETag`. */
interface SerialEntity {
  $storefront: 1;
  url: string;
  etag?: string;
  document: HalResource;
}

function isSerial(value: unknown): value is SerialEntity {
  return typeof value === 'object' && value !== null && (value as SerialEntity).$storefront === 1;
}

function serialize(data: unknown): unknown {
  if (data instanceof Entity) {
    const { url, etag } = originOf(data);
    // An entity without a URL (an embedded one) cannot resolve its links on the other side: leave it out loud.
    if (url === undefined)
      throw new TypeError('dehydrateStorefront: an entity without a response cannot be dehydrated');
    return { $storefront: 1, url, etag, document: data.toJSON() } satisfies SerialEntity;
  }
  if (typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages)) {
    const pages = data as { pages: unknown[]; pageParams: unknown[] };
    return { pages: pages.pages.map(serialize), pageParams: pages.pageParams };
  }
  return data;
}

function deserializer(client: StorefrontClient) {
  const revive = (data: unknown): unknown => {
    if (isSerial(data)) {
      const entity = client.restore<Entity>(data.document, data.url);
      rememberOrigin(entity, data.url, data.etag);
      hydrateCache(client, data.url, data.etag, data.document);
      return entity;
    }
    if (typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages)) {
      const pages = data as { pages: unknown[]; pageParams: unknown[] };
      return { pages: pages.pages.map(revive), pageParams: pages.pageParams };
    }
    return data;
  };
  return revive;
}

/**
 * TanStack's `dehydrate` for a server render: entities (and pages of lists) become JSON (their document, URL and
 * `ETag`), so that the state can go into the page as is. Hydrate it in the browser with {@link StorefrontHydrate}.
 */
export function dehydrateStorefront(queryClient: QueryClient, options: DehydrateOptions = {}): DehydratedState {
  return dehydrate(queryClient, { ...options, serializeData: serialize });
}

/**
 * TanStack's `hydrate` of a state made by {@link dehydrateStorefront}, its entities restored by `client` and their
 * responses put into its HTTP cache (see {@link StorefrontHydrate}).
 */
export function hydrationOptions(client: StorefrontClient) {
  return { defaultOptions: { deserializeData: deserializer(client) } };
}

/** Props of {@link StorefrontHydrate}. */
export interface StorefrontHydrateProps {
  /** What {@link dehydrateStorefront} made on the server (after a JSON round trip). */
  state: DehydratedState | null | undefined;
  children?: ReactNode;
}

/**
 * TanStack's `HydrationBoundary` for a state made by {@link dehydrateStorefront}: the entities come back as entities
 * of the provider's client, their links working, without a request, and their responses go into its HTTP cache: a
 * write drops (and refetches) those it touched, as it would responses the client read itself, and later reads
 * revalidate them with their `ETag`.
 */
export function StorefrontHydrate({ state, children }: StorefrontHydrateProps): ReactNode {
  const client = useClient();
  const options = useMemo(() => hydrationOptions(client), [client]);
  return createElement(HydrationBoundary, { state, options }, children);
}
