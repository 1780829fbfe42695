/**
 * Lists every product of a shop, page after page, filtered by a search query.
 *
 *   npm run example -- list-products [--shop SUBDOMAIN] [--query TEXT] [--per-page N]
 *
 * A `public` token is enough to read products: ask for the least scope that does the job.
 */
import { parseArgs } from 'node:util';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { findShop } from '../shared/find-shop.js';
import { money } from '../shared/format.js';
import type { ExampleOptions } from '../shared/options.js';

/** Options of {@link main}. */
export interface ListProductsOptions extends ExampleOptions {
  /** Subdomain or id of one of the user's shops; default: the first. */
  shop?: string;
  /** Matches title, vendor and tags; default: every product. */
  query?: string;
  /** Products per page (1–100). Default 30. */
  perPage?: number;
}

/** What was listed. */
export interface ListProductsResult {
  shop: string;
  /** Titles, in the order listed. */
  titles: string[];
  pages: number;
}

export const description = 'list every product of a shop across pages, filtered by a query';

export async function main(options: ListProductsOptions): Promise<ListProductsResult> {
  const log = options.log ?? console.log;
  const client = createClient({
    baseUrl: options.baseUrl,
    auth: clientCredentials({
      authUrl: options.authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: 'public',
    }),
  });

  const shop = await findShop(await client.root({ signal: options.signal }), options.shop);
  const { name, currency_code: currency, locale } = shop.properties;
  // The link is a URI template: the SDK fills in the variables and refuses those the template does not declare.
  const list = await shop.follow('svc:products', { q: options.query, per_page: options.perPage });
  const total = list.properties.total_items;
  const pageCount = Math.max(1, Math.ceil(total / list.properties.per_page));
  log(`${name}: ${total} products${options.query ? ` matching "${options.query}"` : ''}`);

  const titles: string[] = [];
  let pages = 0;
  // `pages()` follows `next` until the last page, one request per page, as the loop asks for them.
  for await (const page of list.pages({ signal: options.signal })) {
    pages++;
    log(`— page ${page.properties.page} of ${pageCount}`);
    for (const product of page.pageItems) {
      const { title, price, status } = product.properties;
      titles.push(title);
      log(
        `  ${title.padEnd(40)} ${money(price, currency, locale).padStart(12)}${status === 'hidden' ? '  (hidden)' : ''}`,
      );
    }
  }
  return { shop: name, titles, pages };
}

/** The runner's command-line arguments, as options. */
export function fromArgs(args: string[]): Partial<ListProductsOptions> {
  const { values } = parseArgs({
    args,
    options: { shop: { type: 'string' }, query: { type: 'string' }, 'per-page': { type: 'string' } },
  });
  return {
    shop: values.shop,
    query: values.query,
    perPage: values['per-page'] === undefined ? undefined : Number(values['per-page']),
  };
}
