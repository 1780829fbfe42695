/** The generated contract keeps the contract's named unions named: each list of literals is written once. */
import { describe, expect, it } from 'vitest';
import { CONTRACT } from '../../src/openapi/contract.js';

/** Every `enum` list in `value`, with where it is. */
function enums(value: unknown, at: string, out: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) enums(item, `${at}[${i}]`, out);
  } else if (value && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key === 'enum') out.push([at, JSON.stringify([...(member as unknown[])].sort())]);
      else enums(member, `${at}.${key}`, out);
    }
  }
  return out;
}

describe('the generated contract', () => {
  it('writes each union of literals once, as a component that its uses refer to', () => {
    const found = enums(CONTRACT, 'CONTRACT');
    const byValues = new Map<string, string[]>();
    for (const [at, values] of found) byValues.set(values, [...(byValues.get(values) ?? []), at]);
    const repeated = [...byValues.values()].filter((places) => places.length > 1);
    expect(repeated).toEqual([]);
    const query = CONTRACT.schemas.ProductQuery as { properties: Record<string, unknown> };
    expect(query.properties.sort).toEqual({ $ref: '#/components/schemas/ProductSort' });
    const events = CONTRACT.schemas.CreateWebhookEndpointBody as { properties: { events: unknown } };
    expect(events.properties.events).toMatchObject({
      items: { anyOf: [{ $ref: '#/components/schemas/EventType' }, { const: '*' }] },
    });
  });

  it('writes a tuple of literals as its value (`ErrorBody._class`), which every linter reads', () => {
    const body = CONTRACT.schemas.ErrorBody as { properties: Record<string, unknown> };
    expect(body.properties._class).toEqual({ const: ['errors'] });
  });
});
