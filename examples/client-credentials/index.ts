/**
 * Unattended automation with the client credentials grant: the app acts as the user who registered it, with no
 * browser and no stored token. A sales report over every shop the user administers, run twice with the HTTP
 * cache, to show that the second run costs only revalidations (304, no bodies).
 *
 *   npm run example -- client-credentials [--status STATUS] [--verbose]
 */
import { parseArgs } from 'node:util';
import { clientCredentials, createClient, createHttpCache, type OrderStatus } from '@storefront-platform/sdk';
import { money, plural } from '../shared/format.js';
import type { ExampleOptions } from '../shared/options.js';

/** Options of {@link main}. */
export interface ClientCredentialsExampleOptions extends ExampleOptions {
  /** Orders counted in the revenue. Default `paid`. */
  status?: OrderStatus;
  /** Log every request and response. */
  verbose?: boolean;
}

/** One shop's line of the report. */
export interface ShopReport {
  shop: string;
  orders: number;
  /** Orders of the status asked for. */
  counted: number;
  /** Their total, in cents of `currency`. */
  revenue: number;
  currency: string;
}

/** What the two runs did. */
export interface ClientCredentialsResult {
  report: ShopReport[];
  /** Responses in each run, and how many of the second run's were 304s answered from the cache. */
  requests: { first: number; second: number; revalidated: number };
}

export const description =
  'automation with the client credentials grant: a sales report, run twice through the HTTP cache';

export async function main(options: ClientCredentialsExampleOptions): Promise<ClientCredentialsResult> {
  const log = options.log ?? console.log;
  const status = options.status ?? 'paid';
  let responses = 0;
  let revalidated = 0;
  const client = createClient({
    baseUrl: options.baseUrl,
    // A token is fetched on first use, renewed shortly before it expires, and once after a 401: nothing to store.
    auth: clientCredentials({
      authUrl: options.authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: 'admin',
    }),
    cache: createHttpCache(),
    userAgent: 'storefront-sales-report/1.0',
    on: {
      // Events carry redacted URLs and headers: safe to log.
      response: (event) => {
        responses++;
        if (options.verbose) log(`    ${event.status} ${event.method} ${event.url} (${Math.round(event.duration)} ms)`);
      },
      'cache:revalidated': () => revalidated++,
    },
  });

  const run = async (): Promise<{ user: string; report: ShopReport[] }> => {
    const root = await client.root({ signal: options.signal });
    const report: ShopReport[] = [];
    for (const summary of root.embedded('shops')) {
      const shop = await summary.follow('self');
      const orders = await shop.follow('svc:orders', { per_page: 100 });
      const line: ShopReport = {
        shop: shop.properties.name,
        orders: orders.properties.total_items,
        counted: 0,
        revenue: 0,
        currency: shop.properties.currency_code,
      };
      for await (const order of orders.items({ signal: options.signal })) {
        if (order.properties.status !== status) continue;
        line.counted++;
        line.revenue += order.properties.total;
      }
      report.push(line);
    }
    return { user: root.properties.user_name, report };
  };

  const { user, report } = await run();
  const first = responses;
  log(`Sales report (${status} orders), as ${user}:`);
  for (const line of report) {
    log(
      `  ${line.shop.padEnd(28)} ${plural(line.counted, `${status} order`).padEnd(16)} ${money(line.revenue, line.currency)}`,
    );
  }

  responses = 0;
  revalidated = 0;
  await run();
  const second = responses;
  log(
    `First run: ${plural(first, 'response')}; second run: ${plural(second, 'response')}, ${revalidated} of them 304s served from the cache`,
  );
  return { report, requests: { first, second, revalidated } };
}

const STATUSES: readonly OrderStatus[] = ['open', 'pending', 'paid', 'shipped', 'closed', 'cancelled'];

/** The runner's command-line arguments, as options. */
export function fromArgs(args: string[]): Partial<ClientCredentialsExampleOptions> {
  const { values } = parseArgs({ args, options: { status: { type: 'string' }, verbose: { type: 'boolean' } } });
  const status = values.status as OrderStatus | undefined;
  if (status !== undefined && !STATUSES.includes(status))
    throw new Error(`--status must be one of ${STATUSES.join(', ')}`);
  return { status, verbose: values.verbose };
}
