import type { Addresses } from '../core/types.js';
import generated from './examples.generated.json' with { type: 'json' };

/**
 * Example request bodies, in the document beside each body's schema: what a tool that sends examples (a mock,
 * a fuzzer's first case, the explorer) sends, and what server/test/openapi/walk.test.ts sends to a real server.
 * Each is a request the server takes on a development theme of the seed.
 */

/** A 1×1 GIF: the smallest file an asset upload takes (its bytes must be a file of the name's extension). */
const DOT_GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Example bodies, by the component name of their schema. */
export const BODY_EXAMPLES: Readonly<Record<string, unknown>> = {
  UpdateThemeBody: { title: 'Summer sale', settings: { accent: '#aa3300' } },
  CreateTemplateBody: { file_name: 'partials/banner.html', body: '<div class="banner">Summer sale</div>' },
  UpdateTemplateBody: { body: '<div class="banner">Summer sale: 20% off</div>' },
  CreateThemeAssetBody: { file_name: 'images/dot.gif', data: DOT_GIF },
  CreateWebhookEndpointBody: {
    url: 'https://hooks.example.com/storefront',
    events: ['product.updated', 'order.created'],
    description: 'Product feed',
  },
  UpdateWebhookEndpointBody: { description: 'Product feed (paused)', status: 'disabled' },
};

/** The token endpoint's example form: the client credentials grant of an app authenticated with Basic. */
export const TOKEN_FORM_EXAMPLE = { grant_type: 'client_credentials', scope: 'admin' };

/** The addresses the generated examples are written at; `rebaseExample` moves them to a server's own. */
export const EXAMPLE_ADDRESSES: Addresses = {
  origin: 'http://storefront.example',
  baseUrl: 'http://storefront.example/v1',
  authUrl: 'http://storefront.example',
  staticUrl: 'http://storefront.example/static',
};

/** `value` with every URL at {@link EXAMPLE_ADDRESSES} moved to `addresses` (the longest prefix first). */
function rebase(value: unknown, addresses: Addresses): unknown {
  if (typeof value === 'string') {
    for (const key of ['baseUrl', 'staticUrl', 'authUrl', 'origin'] as const) {
      if (value.startsWith(EXAMPLE_ADDRESSES[key])) return addresses[key] + value.slice(EXAMPLE_ADDRESSES[key].length);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => rebase(item, addresses));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, rebase(member, addresses)]));
  }
  return value;
}

/**
 * The answer of each resource GET over the demo data, by operation id, at {@link EXAMPLE_ADDRESSES}: generated data
 * (`examples.generated.json`, written by scripts/openapi-examples.ts; `npm run docs`).
 */
const GENERATED_EXAMPLES: Readonly<Record<string, unknown>> = generated;

/** Operations whose example is another's: a shop's production theme is the theme by its id (written once). */
const SAME_ANSWER: Readonly<Record<string, string>> = { getProductionTheme: 'getTheme' };

/**
 * The seed's answer to the operation `operationId` (scripts/openapi-examples.ts) at `addresses`: real ids, and
 * links that lead to other examples' resources.
 */
export function answerExample(operationId: string, addresses: Addresses): unknown {
  const example = GENERATED_EXAMPLES[SAME_ANSWER[operationId] ?? operationId];
  return example === undefined ? undefined : rebase(example, addresses);
}
