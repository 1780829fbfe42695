/** The OpenAPI document: assembled from the route table, the contract and the relation registry, and nothing else. */
import { describe, expect, it } from 'vitest';
import { apiRoutes, relationRoutes, staticRoutes } from '../../src/api/routes.js';
import type { Route } from '../../src/http/route.js';
import { openApiDocument } from '../../src/openapi/document.js';

const origin = 'https://shop.example.net';
const addresses = { origin, baseUrl: `${origin}/v1`, authUrl: origin, staticUrl: `${origin}/files` };
// biome-ignore lint/suspicious/noExplicitAny: the document is read as the JSON it is
const document = openApiDocument(addresses, { api: apiRoutes }) as any;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as object).map(([method, operation]) => ({ path, method, operation })),
);

describe('the OpenAPI document', () => {
  it('has an operation for every route under {base_url}, with its scope as the security requirement', () => {
    for (const route of apiRoutes) {
      const path = `/v1${route.path.replace(/:(\w+)/g, '{$1}')}`.replace(/\/$/, '');
      const found = operations.find(
        (o) => o.method === route.method.toLowerCase() && o.path.replace(/\.json$/, '') === path,
      );
      expect(found, `${route.method} ${route.path}`).toBeDefined();
      expect(found!.operation.security).toEqual(route.scope === null ? [] : [{ oauth2: [route.scope] }]);
    }
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every .jsonp operation its errors as scripts, as the server sends them', () => {
    const jsonp = operations.filter((o) => o.path.endsWith('.jsonp') && o.method === 'get');
    expect(jsonp.length).toBeGreaterThan(0);
    for (const { path, operation } of jsonp) {
      expect(operation.responses['404'], path).toBeDefined();
      for (const [status, response] of Object.entries<Record<string, unknown>>(operation.responses)) {
        if (status === '304') continue;
        const script = { schema: expect.objectContaining({ type: 'string' }) };
        // A bad callback's 400 cannot be a script: it is the plain JSON error.
        const json = status === '400' ? { 'application/json': expect.anything() } : {};
        expect(response.content, `${path} ${status}`).toEqual({ 'text/javascript': script, ...json });
      }
    }
  });

  it('names the answers any path may give once, in its description', () => {
    expect(document.info.description).toMatch(/405 \(with `Allow`[^)]*\).*431/);
  });

  it('describes the relation pages and the theme files, at their mounts', () => {
    const mounted = [
      ...staticRoutes.map((route) => ({ route, at: '/files' })),
      ...relationRoutes.map((route) => ({ route, at: '/rels' })),
    ];
    for (const { route, at } of mounted) {
      // The preview folder is described at its address as linked, with its `/`.
      const folder = route.path.endsWith('/:key') ? '/' : '';
      const path = at + route.path.replace(/[:*](\w+)/g, '{$1}') + folder;
      expect(document.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
  });

  it('takes bodies, targets and template variables from the contract, summaries from the relation registry', () => {
    const update = document.paths['/v1/themes/{theme_id}/templates/{template_id}'].put;
    expect(update.summary).toBe('Change a template’s body or file name.');
    expect(update.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/UpdateTemplateBody',
    });
    expect(update.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ThemeTemplate',
    });
    const products = document.paths['/v1/products.json'].get;
    const names = products.parameters
      .filter((p: { in?: string }) => p.in === 'query')
      .map((p: { name: string }) => p.name);
    expect(names).toEqual(['q', 'shop_ids', 'status', 'tags', 'sort', 'page', 'per_page', 'after']);
    expect(products.parameters.find((p: { name?: string }) => p.name === 'shop_ids')).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array' },
    });
    const product = document.components.schemas.Product;
    expect(product.properties._embedded.properties.shop).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/ShopSummary' },
    });
    expect(product.properties._class).toMatchObject({ const: ['product'] });
    expect(document.components.schemas.ThemeTemplate.properties._links.properties['svc:delete_template']).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Link' },
        { properties: { method: { const: 'delete' } }, required: ['method'] },
      ],
    });
  });

  it('is at the addresses the server is reached at', () => {
    expect(document.servers).toEqual([{ url: origin }]);
    expect(document.paths['/files/themes/{theme_id}/assets/{digest}/{file_name}']).toBeDefined();
    expect(document.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(`${origin}/oauth/token`);
  });

  it('refuses a route nobody described, rather than leaving it out', () => {
    const added: Route = { method: 'GET', path: '/coupons', scope: 'admin', handle: () => ({ status: 204 }) };
    expect(() => openApiDocument(addresses, { api: [...apiRoutes, added] })).toThrow(
      'The route GET /coupons is not described in server/src/openapi/operations.ts',
    );
    expect(() => openApiDocument(addresses, { api: apiRoutes.slice(1) })).toThrow(
      'describes routes that do not exist: GET /',
    );
  });

  it('declares X-Request-Id on every response, the authorization service’s and the relation pages’ included', () => {
    type Response = { $ref?: string; headers?: Record<string, unknown> };
    const responses: Response[] = [
      ...operations.flatMap(({ operation }) => Object.values((operation as { responses?: object }).responses ?? {})),
      ...Object.values(document.components.responses as object),
    ];
    expect(responses.length).toBeGreaterThan(100);
    expect(responses.filter((response) => !response.$ref && !response.headers?.['X-Request-Id'])).toEqual([]);
  });
});
