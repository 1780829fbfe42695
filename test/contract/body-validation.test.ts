/**
 * Every request body of the contract is validated from the contract's own schema: for each relation that takes a
 * body, a member the schema is made to require for the test is asked of a request that follows that relation.
 * A route that checked its body against a description of its own would let the request through. A body relation
 * added to the contract without a request here fails the test, so that none goes unchecked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../server/src/http/json-schema.js';
import { CONTRACT } from '../../server/src/openapi/contract.js';
import { type Doc, useThemeServer } from '../../server/test/themes/fixture.js';

const t = useThemeServer();

/** A request that follows a relation with a valid body, less the probe. */
interface Probe {
  method: string;
  url: () => Promise<string>;
  body: Record<string, unknown>;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

async function endpointUrl(): Promise<string> {
  const created = await t.json('/webhook_endpoints', {
    method: 'POST',
    json: { url: 'http://localhost:9/probe' },
    status: 201,
  });
  return created._links.self.href as string;
}

async function templateUrl(): Promise<string> {
  const theme = await t.json('/themes/2', { status: 200 });
  return (theme._embedded.templates as Doc[])[0]!._links.self.href as string;
}

const fixed = (url: string) => async () => url;

/** Requests by `representation relation`. */
const PROBES: Record<string, Probe> = {
  'theme svc:update_theme': { method: 'PUT', url: fixed('/themes/2'), body: { title: 'Probe' } },
  'theme svc:create_template': {
    method: 'POST',
    url: fixed('/themes/2/templates'),
    body: { file_name: 'probe.html', body: '<p>probe</p>' },
  },
  'themeTemplate svc:update_template': { method: 'PUT', url: templateUrl, body: { body: '<p>probe</p>' } },
  'theme svc:create_theme_asset': {
    method: 'POST',
    url: fixed('/themes/2/assets'),
    body: { file_name: 'images/probe.png', data: PNG },
  },
  'root svc:create_webhook_endpoint': {
    method: 'POST',
    url: fixed('/webhook_endpoints'),
    body: { url: 'http://localhost:9/probe' },
  },
  'webhookEndpoint svc:update_webhook_endpoint': { method: 'PUT', url: endpointUrl, body: { description: 'probe' } },
};

/** Every relation of the contract that takes a body, as `representation relation`. */
function bodyRelations(): string[] {
  const out = new Set<string>();
  for (const [name, representation] of Object.entries(CONTRACT.representations)) {
    for (const [rel, relation] of Object.entries(representation.relations)) {
      if (relation.body) out.add(`${name} ${rel}`);
    }
  }
  return [...out].sort();
}

/** The schema of a relation's body, its `$ref` followed. */
function bodySchema(key: string): Record<string, unknown> {
  const [name, rel] = key.split(' ') as [string, string];
  const body = CONTRACT.representations[name]!.relations[rel]!.body as Schema;
  const ref = typeof body.$ref === 'string' ? body.$ref.split('/').at(-1)! : undefined;
  return (ref ? CONTRACT.schemas[ref] : body) as Record<string, unknown>;
}

const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0).reverse()) undo();
});

/** Makes the schema of `key`'s body require a member `probe` for one test. */
function requireProbe(key: string) {
  const schema = bodySchema(key);
  const { properties, required } = schema;
  schema.properties = { ...(properties as object), probe: { type: 'string' } };
  schema.required = [...((required as string[] | undefined) ?? []), 'probe'];
  restore.push(() => {
    schema.properties = properties;
    if (required === undefined) delete schema.required;
    else schema.required = required;
  });
}

describe('request bodies follow the contract', () => {
  it('every relation with a body has a probe here', () => {
    expect(Object.keys(PROBES).sort()).toEqual(bodyRelations());
  });

  it.each(Object.keys(PROBES))('%s: the contract schema is the one checked', async (key) => {
    const probe = PROBES[key]!;
    const url = await probe.url();
    requireProbe(key);
    const refused = await t.call(url, { method: probe.method, json: probe.body });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as Doc)._embedded.errors).toEqual([{ field: 'probe', messages: ['is required'] }]);
    const accepted = await t.call(url, { method: probe.method, json: { ...probe.body, probe: 'x' } });
    expect(accepted.status, await accepted.clone().text()).toBeLessThan(300);
  });
});
