/**
 * The server validates request bodies with the wire contract's generated schemas, not with a copy of its own: a
 * member or a bound the contract's schema gains is enforced by the server with no other change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT } from '../../src/openapi/contract.js';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();

const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0).reverse()) undo();
});

/** Changes `schema` for one test. */
function change(schema: Record<string, unknown>, key: string, value: unknown) {
  const had = Object.hasOwn(schema, key);
  const before = schema[key];
  schema[key] = value;
  restore.push(() => {
    if (had) schema[key] = before;
    else delete schema[key];
  });
}

async function putTheme(json: unknown) {
  const response = await t.call('/themes/2', { method: 'PUT', json });
  return { status: response.status, body: (await response.json()) as Doc };
}

describe('request bodies', () => {
  it('are checked against the schema the contract gives the relation', async () => {
    // The schema of `svc:update_theme`'s body (test/contract/body-validation.test.ts follows every relation's).
    const schema = CONTRACT.schemas.UpdateThemeBody as Record<string, unknown>;
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect((await putTheme({ title: 'Long enough' })).status).toBe(200);
    change(properties, 'title', { ...properties.title, maxLength: 3 });
    const long = await putTheme({ title: 'Long enough' });
    expect(long.status).toBe(422);
    expect(long.body._embedded.errors).toEqual([{ field: 'title', messages: ['must be at most 3 characters'] }]);
    change(schema, 'required', ['settings']);
    const missing = await putTheme({ title: 'ok' });
    expect(missing.body._embedded.errors).toEqual([{ field: 'settings', messages: ['is required'] }]);
  });

  it('name, in a 422, the member and where inside it the value is refused', async () => {
    const endpoint = await t.call('/webhook_endpoints', {
      method: 'POST',
      json: { url: 'http://localhost:9/hook', events: ['order.created', 'order.shipped'] },
    });
    expect(endpoint.status).toBe(422);
    const [error] = ((await endpoint.json()) as Doc)._embedded.errors;
    expect(error.field).toBe('events');
    expect(error.messages[0]).toMatch(/^\[1\]: must be "theme\.created", .* or "\*"$/);
  });
});
