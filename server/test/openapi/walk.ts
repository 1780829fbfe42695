/**
 * The served document against the server it describes (what Schemathesis would do, with what runs here): every
 * operation is sent its examples, then each bound of its query and body (the minimum, the maximum, the longest
 * string, the fewest items, each value of an enum). No answer may be a 5xx, and a request the document declares
 * valid must not be refused (4xx). Path parameters are the seed's own resources, on a development theme the walk
 * creates; writes come after reads, deletions last. Used by walk.test.ts (a JSON file) and
 * server/test/postgres/openapi-walk.test.ts.
 */
import { basicAuthorization } from '@storefront-platform/sdk/internal';
import type { StorefrontServer } from '../../src/create-server.js';
import { clientToken } from '../helpers/test-server.js';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
  style?: string;
  explode?: boolean;
}
interface Call {
  label: string;
  method: string;
  url: string;
  body?: string;
  contentType?: string;
  /** The document declares it valid: any 4xx is a failure too. */
  valid: boolean;
}

const ORDER = ['get', 'head', 'put', 'post', 'delete'];
/** Parameters whose values only the server can write (a `next` link's cursor): the walk does not make them up. */
const SERVER_WRITTEN = new Set(['after']);

let server: StorefrontServer;
let token: string;
let document: Json;
let values: Record<string, string>;

/** Webhook deliveries of a walked server: answered at once, sent nowhere. */
export const QUIET_WEBHOOKS = { send: async () => ({ status: 204, retryAfter: null }) };

/**
 * Walks the document `running` serves (seeded, with `QUIET_WEBHOOKS`); resolves with the failures (none when the
 * server takes what the document declares) and how many requests were sent.
 */
export async function walkDocument(running: StorefrontServer): Promise<{ sent: number; failures: string[] }> {
  server = running;
  token = await clientToken(server);
  document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
  values = await pathValues();
  const all = calls();
  const failures: string[] = [];
  for (const call of all) {
    const { status, text } = await send(call);
    if (status >= 500 || (call.valid && status >= 400)) failures.push(`${call.label}: ${status} ${text.slice(0, 200)}`);
  }
  return { sent: all.length, failures };
}

async function api(method: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Json;
}

/** The value of each path parameter: the seed's resources, and a development theme with a template and an asset. */
async function pathValues(): Promise<Record<string, string>> {
  const { store } = server;
  const shop = store.all('shops')[0]!;
  const product = store.where('products', 'shop_id', shop.id)[0]!;
  const order = store.where('orders', 'shop_id', shop.id)[0]!;
  const dev = (await api('POST', `/shops/${shop.id}/themes`)) as { id: string | number };
  const theme = store.get('themes', String(dev.id))!;
  const template = store.where('templates', 'theme_id', theme.id).find((t) => t.file_name !== 'layout.html')!;
  const asset = store.where('assets', 'theme_id', theme.id).find((a) => a.file_name.includes('/'))!;
  const endpoint = await api('POST', '/webhook_endpoints', { url: 'https://hooks.example.com/walk' });
  const ping = await api('POST', `/webhook_endpoints/${endpoint.id}/ping`);
  const event = store.all('events').at(-1)!;
  return {
    shop_id: shop.id,
    'shops/{id}': shop.id,
    'products/{id}': product.id,
    'orders/{id}': order.id,
    'events/{id}': event.public_id,
    theme_id: theme.id,
    template_id: template.id,
    asset_id: asset.id,
    digest: asset.digest,
    file_name: asset.file_name,
    key: theme.preview_key,
    endpoint_id: String(endpoint.id),
    delivery_id: String(ping.id),
    rel: 'update_theme',
  };
}

function resolve(value: unknown): Json {
  const ref = (value as Json | undefined)?.$ref;
  if (typeof ref !== 'string') return (value ?? {}) as Json;
  return resolve(
    ref
      .split('/')
      .slice(1)
      .reduce<unknown>((at, key) => (at as Json)[key], document),
  );
}

function pathOf(template: string): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const before = template.slice(0, template.indexOf(whole)).split('/').filter(Boolean).at(-1);
    const value = values[`${before}/${whole}`] ?? values[name];
    if (value === undefined) throw new Error(`${template}: no value for ${name}`);
    return encodeURIComponent(value);
  });
}

/** A query value of `schema` at a bound, with the label of the bound; none when it has no bound. */
function boundValues(schema: Json): [string, string][] {
  const out: [string, string][] = [];
  if (schema.type === 'array') {
    const items = resolve(schema.items);
    const item = items.enum ? String((items.enum as unknown[])[0]) : 'a';
    if (schema.minItems !== undefined) out.push([`minItems ${schema.minItems}`, item]);
    return out;
  }
  for (const key of ['minimum', 'maximum'] as const) {
    if (typeof schema[key] === 'number') out.push([`${key} ${schema[key]}`, String(schema[key])]);
  }
  if (typeof schema.maxLength === 'number' && !schema.pattern) {
    out.push([`maxLength ${schema.maxLength}`, 'a'.repeat(schema.maxLength)]);
  }
  const enumeration = resolve(schema).enum as unknown[] | undefined;
  if (enumeration) out.push(...enumeration.map((value): [string, string] => [`= ${value}`, String(value)]));
  return out;
}

/** Body variants: the example, and each string member at its `maxLength` where the example has that member. */
function bodyVariants(media: Json): [string, unknown][] {
  if (media.example === undefined) return [];
  const out: [string, unknown][] = [['example', media.example]];
  const properties = (resolve(media.schema).properties ?? {}) as Record<string, Json>;
  for (const [name, member] of Object.entries(properties)) {
    const example = media.example as Json;
    if (typeof member.maxLength === 'number' && !member.pattern && typeof example[name] === 'string') {
      out.push([`${name} maxLength ${member.maxLength}`, { ...example, [name]: 'a'.repeat(member.maxLength) }]);
    }
  }
  return out;
}

function calls(): Call[] {
  const out: Call[] = [];
  const paths = document.paths as Record<string, Record<string, Json>>;
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!ORDER.includes(method)) continue;
      const url = `${server.origin}${pathOf(template)}`;
      const parameters = ((operation.parameters ?? []) as Json[]).map((p) => resolve(p) as unknown as Parameter);
      const query = parameters.filter((p) => p.in === 'query' && !SERVER_WRITTEN.has(p.name));
      const required = new URLSearchParams(
        query.filter((p) => p.required).map((p) => [p.name, p.name === 'callback' ? 'cb' : String(p.schema?.default)]),
      );
      const label = `${method.toUpperCase()} ${template}`;
      // The authorization pages take a person's answers: sent for the 5xx check only.
      const valid = !template.startsWith('/oauth/authorize');
      const add = (suffix: string, search: URLSearchParams, body?: string, contentType?: string) =>
        out.push({
          label: `${label}${suffix}`,
          method: method.toUpperCase(),
          url: `${url}${search.size ? `?${search}` : ''}`,
          body,
          contentType,
          valid,
        });
      const content = ((operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
      const bodies: [string, string, string][] = [];
      for (const [type, media] of Object.entries(content)) {
        const encode =
          type === 'application/json' ? JSON.stringify : (v: unknown) => `${new URLSearchParams(v as never)}`;
        for (const [name, value] of bodyVariants(media)) bodies.push([name, encode(value), type]);
      }
      if (operation.requestBody && !bodies.length) {
        if (valid) throw new Error(`${label}: a body without an example`);
        bodies.push(['empty', '', Object.keys(content)[0]!]);
      }
      if (bodies.length) for (const [name, body, type] of bodies) add(` body ${name}`, required, body, type);
      else add('', required);
      for (const parameter of query) {
        for (const [bound, value] of boundValues(resolve(parameter.schema))) {
          const search = new URLSearchParams(required);
          search.set(parameter.name, value);
          add(` ${parameter.name} ${bound}`, search, bodies[0]?.[1], bodies[0]?.[2]);
        }
      }
    }
  }
  return out.sort((a, b) => ORDER.indexOf(a.method.toLowerCase()) - ORDER.indexOf(b.method.toLowerCase()));
}

async function send(call: Call): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (call.url.startsWith(`${server.origin}/oauth/token`)) {
    headers.authorization = basicAuthorization(server.credentials!);
  }
  if (call.contentType) headers['content-type'] = call.contentType;
  const response = await fetch(call.url, { method: call.method, headers, body: call.body, redirect: 'manual' });
  return { status: response.status, text: call.method === 'HEAD' ? '' : await response.text() };
}
