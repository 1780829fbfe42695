/**
 * The two implementations under contract: the reference server (Express over real HTTP on port 0) and the MSW
 * handlers (`setupServer`). Both are reached through URLs under {@link ORIGIN}.
 */

import { createServer, type Dataset, type Store, type StorefrontServer } from '@storefront-platform/server';
import { createHandlers } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { clock, DATASET, ORIGIN, TOKEN_TTL } from './fixture.js';

export interface Target {
  name: 'express' | 'msw';
  /** Once per file, before any case. */
  open(): Promise<void>;
  /** Fresh data (the initial data set, ids starting over) and the clock back at the start. */
  fresh(): Promise<void>;
  /** `fetch` of a URL under {@link ORIGIN}. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The platform's `fetch`, taken when this module loads, before any MSW server of the file listens and patches the
 * global one: the Express target's requests then never pass through MSW's interceptor, so both targets run side by
 * side in one test without MSW seeing (or refusing) the other's traffic.
 */
const networkFetch = globalThis.fetch;

/**
 * A fresh reference server per case: the server has no reset, and starting one over a data set takes milliseconds.
 * `store`: a store of the data set to serve (a PostgreSQL schema reset to it) instead of the data set in memory.
 */
export function expressTarget(store?: (data: Dataset) => Promise<Store>): Target {
  let server: StorefrontServer | undefined;
  const stop = async () => {
    await server?.close();
    await (store ? server?.store.close() : undefined);
  };
  return {
    name: 'express',
    async open() {},
    async fresh() {
      await stop();
      clock.reset();
      const data = structuredClone(DATASET);
      server = await createServer({
        port: 0,
        ...(store ? { store: await store(data) } : { data }),
        publicUrl: ORIGIN,
        clock,
        tokenTtl: TOKEN_TTL,
        // The explorer is the server's own page, which the handlers do not serve, nor link from the root.
        explorer: false,
      });
    },
    fetch(url, init) {
      if (!url.startsWith(ORIGIN)) throw new Error(`not a URL of the service: ${url}`);
      return networkFetch(server!.url + url.slice(ORIGIN.length), init);
    },
    close: stop,
  };
}

/** One mock for all cases, reset before each: `reset()` is under contract too. */
export function mswTarget(): Target {
  const mock = createHandlers({ origin: ORIGIN, data: DATASET, clock, tokenTtl: TOKEN_TTL });
  const server = setupServer(...mock.handlers);
  return {
    name: 'msw',
    async open() {
      // msw 3 renamed `onUnhandledRequest` to `onUnhandledFrame`; each version ignores the other's name.
      const strict = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const;
      server.listen(strict);
    },
    async fresh() {
      mock.reset();
      clock.reset();
    },
    fetch: (url, init) => fetch(url, init),
    async close() {
      server.close();
    },
  };
}
