/**
 * The client process of bench/sdk-body-limit.bench.ts, bundled and run on plain Node as an app would run the SDK
 * (no TypeScript loader in its RSS): `node child.mjs ORIGIN LIMIT PATH…` sends, at once, one request of ORIGIN+PATH
 * for each PATH with `maxResponseSize` LIMIT (bytes, or `default`), and prints what it saw as JSON: each request's
 * outcome, the bytes the SDK pulled from each body (counted by a `fetch` below it), and the process's peak RSS.
 */
import { createClient, ResponseTooLargeError } from '@storefront-platform/sdk';

/** What the child reports. */
export interface Round {
  /** The limit the client applied (that of its errors). */
  limit: number;
  /** Each request's path. */
  paths: string[];
  /** `name: message` of each request's failure ("resolved" when one was read). */
  outcomes: string[];
  /** Bytes the SDK pulled from each response body, and the largest chunk among them. */
  read: number[];
  largestChunk: number;
  /** Peak RSS of the child, in bytes. */
  maxRss: number;
}

/** A `fetch` that counts, into `read[index]`, what the SDK pulls from the body; `largest` gets the largest chunk. */
function countingFetch(read: number[], index: number, largest: { chunk: number }): typeof fetch {
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const reader = response.body!.getReader();
    // Pulled only when the SDK reads: what this counts is what the SDK took.
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          read[index]! += value.byteLength;
          largest.chunk = Math.max(largest.chunk, value.byteLength);
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, response);
  };
}

const [origin, limitArg, ...paths] = process.argv.slice(2);
const maxResponseSize = limitArg === 'default' ? undefined : Number(limitArg);
const read = paths.map(() => 0);
const largest = { chunk: 0 };
let limit = 0;
const outcomes = await Promise.all(
  paths.map(async (path, index) => {
    const fetch = countingFetch(read, index, largest);
    const client = createClient({ baseUrl: `${origin}${path}`, cache: false, fetch, maxResponseSize });
    try {
      await client.root();
      return 'resolved';
    } catch (error) {
      if (error instanceof ResponseTooLargeError) limit = error.limit;
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  }),
);
const round: Round = {
  limit,
  paths,
  outcomes,
  read,
  largestChunk: largest.chunk,
  maxRss: process.resourceUsage().maxRSS * 1024,
};
process.stdout.write(JSON.stringify(round));
