/**
 * The OpenAPI 3.1 document of the whole service, assembled from the route table (which paths and verbs exist,
 * which scope each needs), the contract (fields, relations, bodies, template variables: `contract.generated.json`),
 * the relation registry (what each relation is for) and {@link OPERATIONS} (which relation each route answers).
 */
import { relationEntry } from '../api/registry.js';
import type { Addresses } from '../core/types.js';
import type { Route } from '../http/route.js';
import { boundedSchemas, CURSOR_PARAMETER, LIST_BOUNDS, LIST_ITEM_BOUNDS, QUERY_BOUNDS } from './bounds.js';
import { CONTRACT } from './contract.js';
import type { Schema } from './contract-types.js';
import { answerExample, BODY_EXAMPLES } from './examples.js';
import { componentName, relationSpec, representationSchemas, schemaRef } from './hal-schemas.js';
import { OPENAPI_MEDIA_TYPE } from './media-type.js';
import { OPERATIONS, type OperationSpec } from './operations.js';
import {
  API_HEADERS,
  ERROR_RESPONSES,
  HEADERS,
  PARAMETERS,
  securitySchemes,
  VALIDATORS,
  withRequestIds,
} from './responses.js';
import { documentPaths, oauthPaths, RELATION_PAGE } from './service-paths.js';
import { ACCESS_TOKEN_SCHEME, jsonpOperation, withHeadOperations } from './variants.js';
import { narrowedEventSchemas, WEBHOOK_PARAMETERS, webhooks } from './webhooks.js';

/** The document's own operation, described with the rest. */
const DOCUMENT_ROUTE = 'GET /openapi';

const paramRef = (name: keyof typeof PARAMETERS) => ({ $ref: `#/components/parameters/${name}` });
const responseRef = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

/** `/shops/:shop_id/products/:id` → `/shops/{shop_id}/products/{id}`, and the names of its parameters. */
function openApiPath(path: string): { path: string; names: string[] } {
  const names: string[] = [];
  const out = path.replace(/[:*](\w+)/g, (_, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path: out === '/' ? '' : out, names };
}

/** A comma-separated list's schema with the server's bounds: at least one item, none blank. */
function boundedList(list: Schema): Schema {
  const items = list.items as Schema;
  const strings = items.type === 'string' || (Array.isArray(items.type) && items.type.includes('string'));
  return { ...list, ...LIST_BOUNDS, items: strings ? { ...items, ...LIST_ITEM_BOUNDS } : items };
}

/** Query parameters of a relation's template variables (those not in the path), with the server's bounds. */
function queryParameters(vars: Schema | undefined, pathNames: string[]): object[] {
  const object = vars && typeof vars.$ref === 'string' ? CONTRACT.schemas[vars.$ref.split('/').pop()!] : vars;
  const properties = (object?.properties ?? {}) as Record<string, Schema>;
  return Object.entries(properties)
    .filter(([name]) => !pathNames.includes(name))
    .map(([name, schema]) => {
      // `OneOrMany<T>`: comma-separated on the wire, an array to a client generator.
      const list = (schema.anyOf as Schema[] | undefined)?.find((member) => member.type === 'array');
      const { description: own, ...rest } = schema;
      const { description = own, ...bounds } = QUERY_BOUNDS[name] ?? {};
      const parameter: Record<string, unknown> = {
        name,
        in: 'query',
        schema: list ? boundedList(list) : { ...rest, ...bounds },
      };
      if (list) Object.assign(parameter, { style: 'form', explode: false });
      if (description) parameter.description = description;
      return parameter;
    });
}

function successResponses(method: string, target: string, creates: OperationSpec['creates'], description: string) {
  // A POST's answer may be the replay of a first one (`Idempotency-Key`), which says so.
  const replayed =
    method === 'post' ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {};
  const headers = { ...API_HEADERS, ...VALIDATORS, ...replayed };
  if (target === 'none') return { '204': { description, headers: { ...API_HEADERS, ...replayed } } };
  const content = { 'application/json': { schema: schemaRef(componentName(target)) } };
  const ok = { description, headers, content };
  if (creates) {
    // `Location` names the created resource's `self`; an asset has none (its `file` is elsewhere).
    const addressable = CONTRACT.representations[target]?.relations.self !== undefined;
    const location = addressable ? { Location: { $ref: '#/components/headers/Location' } } : {};
    if (creates === 'always') return { '201': { ...ok, headers: { ...headers, ...location } } };
    return {
      '200': { ...ok, description: `${description} (found or replaced).` },
      '201': { ...ok, description: `${description} (created).`, headers: { ...headers, ...location } },
    };
  }
  if (method !== 'get') return { '200': ok };
  return { '200': ok, '304': { description: 'Unchanged since the validators sent (no body).', headers } };
}

/** The tag of a resource route, by its first segment. */
function tagOf(path: string): string {
  if (/^\/(events|webhook_)/.test(path)) return 'Webhooks';
  return path.includes('theme') ? 'Themes' : 'Resources';
}

function apiOperation(route: Route, spec: OperationSpec, pathNames: string[]) {
  const method = route.method.toLowerCase();
  const relation = spec.relation ? relationSpec(spec.relation) : undefined;
  const entry = spec.relation ? relationEntry(spec.relation) : undefined;
  if (spec.relation && (!relation || !entry)) {
    throw new Error(`${spec.id}: no relation ${spec.relation} in the contract`);
  }
  if (relation && relation.method !== method) {
    throw new Error(`${spec.id}: ${spec.relation} is followed with ${relation.method}, the route is ${route.method}`);
  }
  const target = relation?.target ?? spec.target;
  if (!target) throw new Error(`${spec.id}: no target`);
  if (typeof target !== 'string') throw new Error(`${spec.id}: ${spec.relation} leads to one of several targets`);
  const read = method === 'get';
  const parameters: object[] = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  parameters.push(...queryParameters(relation?.vars, pathNames));
  // Lists page by keyset cursor in their `next` links (`after`), a parameter their templates leave out.
  const listed = target.startsWith('results:');
  if (listed && !parameters.some((p) => (p as { name?: string }).name === 'after')) parameters.push(CURSOR_PARAMETER);
  parameters.push(
    ...(read
      ? [paramRef('IfNoneMatch'), paramRef('IfModifiedSince')]
      : [paramRef('IfMatch'), paramRef('IfUnmodifiedSince'), paramRef('IfNoneMatch')]),
  );
  if (method === 'post') parameters.push(paramRef('IdempotencyKey'));
  parameters.push(paramRef('RequestId'));
  const responses: Record<string, unknown> = {
    ...successResponses(method, target, spec.creates, entry?.target ?? `A ${target}.`),
    '400': responseRef('BadRequest'),
  };
  if (route.scope !== null) responses['401'] = responseRef('Unauthorized');
  if (route.scope === 'admin') responses['403'] = responseRef('Forbidden');
  Object.assign(responses, { '404': responseRef('NotFound'), '412': responseRef('PreconditionFailed') });
  if (!read) {
    Object.assign(responses, {
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': responseRef('ValidationFailed'),
      '507': responseRef('InsufficientStorage'),
    });
  }
  if (method === 'post') responses['409'] = responseRef('IdempotencyKeyInUse');
  if (route.scope !== null) responses['429'] = responseRef('TooManyRequests');
  responses['503'] = responseRef('ServiceUnavailable');
  const operation: Record<string, unknown> = {
    operationId: spec.id,
    tags: [tagOf(route.path)],
    summary: entry?.summary ?? spec.summary,
    description: entry
      ? [entry.target, entry.payload && `Body: ${entry.payload}`, `Example: \`${entry.example}\``]
          .filter(Boolean)
          .join('\n\n')
      : `Answers a \`${componentName(target)}\`.`,
    security: route.scope === null ? [] : [{ oauth2: [route.scope] }],
    parameters,
  };
  if (spec.relation) operation['x-relation'] = spec.relation;
  if (relation?.body) {
    const name = typeof relation.body.$ref === 'string' ? relation.body.$ref.split('/').pop()! : '';
    const example = BODY_EXAMPLES[name];
    const content: Record<string, unknown> = {
      'application/json': example === undefined ? { schema: relation.body } : { schema: relation.body, example },
    };
    // The asset upload also takes the file as a form part (wire contract, "Themes, templates, assets").
    if (spec.relation === 'svc:create_theme_asset') {
      content['multipart/form-data'] = {
        schema: {
          type: 'object',
          properties: { file: { type: 'string', format: 'binary' }, file_name: { type: 'string' } },
          required: ['file'],
        },
      };
    }
    operation.requestBody = { required: true, description: entry?.payload, content };
  }
  operation.responses = responses;
  return operation;
}

/** `operation` with the seed's answer as the example of its 200, when there is one (examples.generated.json). */
function withAnswerExample(operation: Record<string, unknown>, addresses: Addresses): Record<string, unknown> {
  const example = answerExample(String(operation.operationId), addresses);
  const ok = (operation.responses as Record<string, { content?: Record<string, object> }>)['200'];
  const json = ok?.content?.['application/json'];
  if (example === undefined || !json) return operation;
  const responses = {
    ...(operation.responses as object),
    '200': { ...ok, content: { 'application/json': { ...json, example } } },
  };
  return { ...operation, responses };
}

/** The document's own path: open, validated like a representation. */
function documentOperation() {
  return {
    operationId: 'getOpenApiDocument',
    tags: ['Resources'],
    summary: 'This document (RFC 8631 `service-desc` of the root).',
    description: `The OpenAPI 3.1 document, as \`${OPENAPI_MEDIA_TYPE}\`: what the root’s \`service-desc\` link announces.`,
    security: [],
    responses: {
      '200': {
        description: 'The OpenAPI 3.1 document.',
        headers: { ...API_HEADERS, ...VALIDATORS },
        content: {
          // A media type key names the type without its parameters (`version` is the document's `openapi`).
          [OPENAPI_MEDIA_TYPE.split(';', 1)[0]!]: {
            schema: {
              type: 'object',
              properties: { openapi: { const: '3.1.0' }, paths: { type: 'object' } },
              required: ['openapi', 'paths'],
            },
          },
        },
      },
      '304': { description: 'Unchanged.', headers: VALIDATORS },
      '412': responseRef('PreconditionFailed'),
    },
  };
}

/**
 * The routes the document describes from the route table. The relation pages and theme files are few and fixed:
 * `service-paths.ts` describes them, and a test checks it against their routes.
 */
export interface DescribedRoutes {
  /** Under `{base_url}`. */
  api: readonly Route[];
}

/** Every `$ref`'d component schema, transitively, so that the document carries none it does not use. */
function usedSchemas(document: unknown, available: Record<string, Schema>): Record<string, Schema> {
  const used: Record<string, Schema> = {};
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, member] of Object.entries(value)) {
        if (key === '$ref' && typeof member === 'string' && member.startsWith('#/components/schemas/')) {
          const name = member.slice('#/components/schemas/'.length);
          if (!used[name] && available[name]) {
            used[name] = available[name];
            visit(available[name]);
          }
        } else visit(member);
      }
    }
  };
  visit(document);
  return Object.fromEntries(Object.entries(used).sort(([a], [b]) => a.localeCompare(b)));
}

/** The OpenAPI 3.1 document of the service at `addresses`. */
export function openApiDocument(addresses: Addresses, routes: DescribedRoutes): Record<string, unknown> {
  const base = new URL(addresses.baseUrl).pathname.replace(/\/+$/, '');
  const auth = new URL(addresses.authUrl).pathname.replace(/\/+$/, '');
  const paths: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  for (const route of routes.api) {
    const key = `${route.method} ${route.path}`;
    seen.add(key);
    const { path, names } = openApiPath(route.path);
    if (key === DOCUMENT_ROUTE) {
      paths[`${base}${path}.json`] = { get: documentOperation() };
      continue;
    }
    const spec = OPERATIONS[key];
    if (!spec) throw new Error(`The route ${key} is not described in server/src/openapi/operations.ts`);
    // Each operation at the path the server's links name (`.json` is optional everywhere, but a client generated
    // from the document matches a link against its paths): the endpoint list's GET at `webhook_endpoints.json`,
    // its POST beside it at `webhook_endpoints`.
    const at = `${base}${path}${spec.json ? '.json' : ''}`;
    paths[at] ??= {};
    const operation = withAnswerExample(apiOperation(route, spec, names), addresses);
    paths[at][route.method.toLowerCase()] = operation;
    if (route.method === 'GET' && path) paths[`${base}${path}.jsonp`] = { get: jsonpOperation(operation) };
  }
  const stale = Object.keys(OPERATIONS).filter((key) => !seen.has(key));
  if (stale.length)
    throw new Error(`server/src/openapi/operations.ts describes routes that do not exist: ${stale.join(', ')}`);
  for (const [path, item] of Object.entries(oauthPaths())) paths[`${auth}${path}`] = item as Record<string, unknown>;
  Object.assign(paths, documentPaths(addresses));
  const described = withRequestIds(withHeadOperations(paths));

  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Storefront Platform API',
      version: '1',
      summary: 'Shops, products, orders and shop design themes, as HAL+JSON, with its OAuth 2.0 service.',
      description:
        'Every response is HAL+JSON: `_class`, the fields, `_links` (relation → link; `svc:` relations expand through the `curies` entry to `/rels/{rel}`) and `_embedded` (name → array of resources). Follow links rather than building URLs. Every GET path also answers without its `.json` suffix and, with `.jsonp?callback=fn`, as JSONP (same status, the JSON wrapped in a call; the token may then be passed as `access_token`); HEAD works wherever GET does. Reads carry `ETag` and `Last-Modified` and answer conditional requests with 304. Any path may also answer 405 (with `Allow`, the methods it has) to a method it does not have, and 431 to a request line and headers over 16 KiB; operations do not list these two.',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'The service’s operator', url: addresses.origin },
    },
    servers: [{ url: addresses.origin }],
    security: [{ oauth2: ['public'] }],
    tags: [
      { name: 'Resources', description: 'The root, shops, products and orders.' },
      { name: 'Themes', description: 'Themes, their templates and assets, and the files they serve.' },
      { name: 'OAuth', description: 'The authorization service (spec §5).' },
      { name: 'Relations', description: 'The documentation of each `svc:` relation.' },
      {
        name: 'Webhooks',
        description:
          'Events (one per write, in the same commit), the app’s webhook endpoints and their delivery attempts. The deliveries themselves are under `webhooks`.',
      },
    ],
    paths: described,
    webhooks: webhooks(),
    components: {
      schemas: {} as Record<string, Schema>,
      parameters: { ...PARAMETERS, ...WEBHOOK_PARAMETERS },
      headers: HEADERS,
      responses: ERROR_RESPONSES,
      securitySchemes: { ...securitySchemes(addresses), accessToken: ACCESS_TOKEN_SCHEME },
    },
  };
  const available = {
    ...boundedSchemas(CONTRACT.schemas),
    ...representationSchemas(),
    ...narrowedEventSchemas(),
    RelationPage: RELATION_PAGE,
  };
  document.components.schemas = usedSchemas(document, available);
  return document;
}
