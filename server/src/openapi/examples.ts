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
