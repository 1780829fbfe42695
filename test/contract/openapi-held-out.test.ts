/**
 * Held-out check of the OpenAPI document against the reference server, in the manner of Schemathesis: requests are
 * made from the document alone (its paths, parameters, enums and request body schemas; ids from the links the
 * server hands out), valid and invalid ones, and every answer must be of a status the operation documents and
 * match the document (the contract suite's check): no 500, nothing undocumented. Request bodies also prove that
 * the server's own body validation (server/src/http/json-body.ts) and the contract's body schemas agree on the
 * shapes: a member the schema does not name, a member of another type, a required member left out are each a 422
 * on that member, and a body of the schema's shape is never refused for its shape.
 */
import { basicAuthorization } from '@storefront-platform/sdk/internal';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BASE, DEMO, ORIGIN } from './fixture.js';
import { Conformance } from './openapi-conformance.js';
import { expressTarget } from './target.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as the JSON it is
type Json = any;

const target = expressTarget();
let conformance: Conformance;
let admin: string;
let publicToken: string;
/**
 * Where the crawl starts besides the root: resources no untemplated link of the root leads to (webhook endpoints,
 * two of them, as the generated DELETE removes the first one found).
 */
const starts: string[] = [];
/** Every status seen, for the report. */
const seen = new Map<number, number>();
let sent = 0;

interface Generated {
  method: string;
  url: string;
  token?: string | undefined;
  headers?: Record<string, string>;
  body?: string;
}

async function send(request: Generated): Promise<{ status: number; text: string; headers: Headers }> {
  const headers = new Headers(request.headers);
  if (request.token) headers.set('authorization', `Bearer ${request.token}`);
  const response = await target.fetch(request.url, {
    method: request.method,
    headers,
    body: request.body,
    redirect: 'manual',
  });
  const text = await response.text();
  sent++;
  seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
  const problems = conformance.problems({ ...request, status: response.status, headers: response.headers, text });
  expect(problems, `${request.method} ${request.url}${request.body ? ` ${request.body.slice(0, 120)}` : ''}`).toEqual(
    [],
  );
  expect(response.status).not.toBe(500);
  return { status: response.status, text, headers: response.headers };
}

async function token(scope: string): Promise<string> {
  const response = await target.fetch(`${ORIGIN}/oauth/token`, {
    method: 'POST',
    headers: { authorization: basicAuthorization(DEMO) },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Every link href reachable from the root by GET (templates left out), by following them breadth first. */
async function knownUrls(): Promise<string[]> {
  const found = new Set<string>();
  const queue = [BASE, ...starts];
  const visited = new Set<string>();
  const collect = (document: Json) => {
    for (const value of Object.values(document?._links ?? {}) as Json[]) {
      for (const link of Array.isArray(value) ? value : [value]) {
        if (!link.templated && typeof link.href === 'string' && link.href.startsWith(ORIGIN)) {
          found.add(link.href);
          if (!link.method && !link.type) queue.push(link.href);
        }
      }
    }
    for (const members of Object.values(document?._embedded ?? {}) as Json[][]) members.forEach(collect);
  };
  while (queue.length && visited.size < 80) {
    const url = queue.shift()!;
    if (visited.has(url)) continue;
    visited.add(url);
    const response = await target.fetch(url, { headers: { authorization: `Bearer ${admin}` } });
    if (response.headers.get('content-type')?.startsWith('application/json')) collect(await response.json());
  }
  return [...found];
}

/** The schema at a `$ref`, or the schema itself. */
function resolve(schema: Json): Json {
  if (!schema?.$ref) return schema;
  return resolve(
    schema.$ref
      .slice(2)
      .split('/')
      .reduce((node: Json, part: string) => node[part], conformance.document),
  );
}

/** A value of the schema's shape (the first `type`, the first enum member or constant). */
function sampleOf(schema: Json): unknown {
  const s = resolve(schema);
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return sampleOf(s.anyOf[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  return { string: 'x', integer: 1, boolean: true, object: {}, array: [] }[type as string] ?? null;
}

/** A value of none of the schema's types. */
function mistypedOf(schema: Json): unknown {
  const types: string[] = [resolve(schema).type].flat();
  return types.includes('string') ? (types.includes('integer') ? true : 12) : 'x';
}

/** Values of a query parameter: each enum member and a number, then values the server must refuse. */
function queryValues(schema: Json): string[] {
  const s = resolve(schema);
  const items = s.type === 'array' ? resolve(s.items) : s;
  if (items.enum) return [...items.enum, 'no-such-value'];
  if (s.type === 'integer') return ['1', '2', '0', '-1', '101', 'abc', '1.5'];
  return ['a', '1', '1,2', '%ZZ', ''];
}

/** `template` with its parameters filled from `params` (a known URL's), else with `fallback`. */
function fill(template: string, params: Record<string, string>, fallback?: string): string {
  return ORIGIN + template.replace(/\{(\w+)\}/g, (_, name: string) => fallback ?? params[name] ?? '1');
}

interface Operation {
  method: string;
  template: string;
  operation: Json;
}

function apiOperations(): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(conformance.document.paths) as [string, Json][]) {
    if (!template.startsWith('/v1')) continue;
    for (const method of ['get', 'put', 'post', 'delete']) {
      if (item[method]) out.push({ method: method.toUpperCase(), template, operation: item[method] });
    }
  }
  return out;
}

beforeAll(async () => {
  await target.open();
  await target.fresh();
  const response = await target.fetch(`${BASE}/openapi.json`, {});
  conformance = new Conformance(await response.json());
  admin = await token('admin');
  publicToken = await token('public');
  for (const path of ['/held-out-a', '/held-out-b']) {
    const response = await target.fetch(`${BASE}/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://localhost:9${path}`, events: ['order.created'] }),
    });
    starts.push(((await response.json()) as Json)._links.self.href);
  }
});

afterAll(async () => {
  const statuses = [...seen].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
  console.info(`OpenAPI held-out: ${sent} generated requests, statuses ${statuses.join(' ')}`);
  await target.close();
});

describe('requests generated from the OpenAPI document', () => {
  test('every operation of the resource API, with known and unknown ids, each token, every query value', async () => {
    const known = await knownUrls();
    const operations = apiOperations();
    expect(operations.length).toBeGreaterThanOrEqual(17);
    for (const { method, template, operation } of operations) {
      const instance = known
        .map((url) => conformance.match(new URL(url).pathname, method))
        .find((m) => m?.template === template);
      const params = instance?.params ?? {};
      const url = fill(template, params);
      const body = operation.requestBody?.content['application/json']
        ? JSON.stringify(Object.fromEntries(requiredMembers(operation)))
        : undefined;
      const json: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
      for (const token of [admin, publicToken, undefined, 'not-a-token']) {
        await send({ method, url, token, headers: json, body });
      }
      await send({ method, url: fill(template, params, '999999'), token: admin, headers: json, body });
      await send({ method, url: fill(template, params, '%ZZ'), token: admin, headers: json, body });
      if (method === 'GET') {
        const first = await send({ method, url, token: admin });
        const etag = first.headers.get('etag');
        if (etag) await send({ method, url, token: admin, headers: { 'if-none-match': etag } });
        await send({ method: 'HEAD', url, token: admin });
        await send({ method, url, token: admin, headers: { 'if-match': '"stale"' } });
      } else {
        await send({ method, url, token: admin, headers: { ...json, 'if-match': '"stale"' }, body });
      }
      for (const parameter of (operation.parameters ?? []).map(resolve).filter((p: Json) => p.in === 'query')) {
        for (const value of queryValues(parameter.schema)) {
          await send({ method, url: `${url}?${parameter.name}=${encodeURIComponent(value)}`, token: admin });
        }
      }
      if (operation.requestBody) {
        for (const [type, text] of [
          ['application/json', '{"unterminated'],
          ['application/json', '[1,2]'],
          ['text/plain', 'hello'],
        ]) {
          await send({ method, url, token: admin, headers: { 'content-type': type! }, body: text });
        }
      }
    }
  });

  test('request bodies: the server refuses exactly what the contract’s schemas refuse, on the member at fault', async () => {
    const known = await knownUrls();
    let checked = 0;
    for (const { method, template, operation } of apiOperations()) {
      const schema = operation.requestBody && resolve(operation.requestBody.content['application/json']?.schema);
      if (!schema) continue;
      const instance = known
        .map((url) => conformance.match(new URL(url).pathname, method))
        .find((m) => m?.template === template);
      expect(instance, `a link to ${template}`).toBeDefined();
      const url = fill(template, instance!.params);
      const members = Object.fromEntries(requiredMembers(operation));
      const post = async (body: object) => {
        const reply = await send({
          method,
          url,
          token: admin,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        checked++;
        return { status: reply.status, errors: reply.status === 422 ? JSON.parse(reply.text)._embedded.errors : [] };
      };
      // Refusals of the shape (a member unknown, missing, of another type), not of a value of the right type (a
      // webhook endpoint's `url` "must be an absolute http:// or https:// URL").
      const shape =
        /unknown field|is required|^must be (a string|an integer|a boolean|an object|an array of strings)\b/;
      const shapeError = (errors: Json[]) => errors.filter((e) => e.messages.some((m: string) => shape.test(m)));
      const unknown = await post({ ...members, zz_unknown: 1 });
      expect(unknown, `${method} ${template} with a member the schema does not name`).toMatchObject({
        status: 422,
        errors: [{ field: 'zz_unknown' }],
      });
      for (const [name, property] of Object.entries(schema.properties) as [string, Json][]) {
        const wrong = await post({ ...members, [name]: mistypedOf(property) });
        expect(wrong, `${method} ${template} with ${name} of another type`).toMatchObject({
          status: 422,
          errors: [{ field: name }],
        });
        const shaped = await post({ ...members, [name]: sampleOf(property) });
        expect(shapeError(shaped.errors), `${method} ${template} with ${name} of its type`).toEqual([]);
      }
      for (const name of schema.required ?? []) {
        const { [name]: _, ...rest } = members;
        const missing = await post(rest);
        expect(missing, `${method} ${template} without ${name}`).toMatchObject({
          status: 422,
          errors: [{ field: name, messages: ['is required'] }],
        });
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  test('the token endpoint: each grant of the document, with and without client authentication', async () => {
    const operation = conformance.document.paths['/oauth/token'].post;
    const grants = resolve(operation.requestBody.content['application/x-www-form-urlencoded'].schema).oneOf;
    for (const grant of (grants as Json[]).map(resolve)) {
      const form = new URLSearchParams();
      for (const name of grant.required) form.set(name, String(sampleOf(grant.properties[name])));
      for (const authorization of [basicAuthorization(DEMO), undefined, 'Basic bm9ib2R5Om5vdGhpbmc=']) {
        const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
        if (authorization) headers.authorization = authorization;
        await send({ method: 'POST', url: `${ORIGIN}/oauth/token`, headers, body: form.toString() });
      }
    }
    await send({ method: 'GET', url: `${ORIGIN}/oauth/token` });
  });
});

/** The required members of an operation's JSON body, each with a value of its type. */
function requiredMembers(operation: Json): [string, unknown][] {
  const schema = resolve(operation.requestBody?.content['application/json']?.schema ?? {});
  return (schema.required ?? []).map((name: string) => [name, sampleOf(schema.properties[name])]);
}
