import { describe, expect, it } from 'vitest';
import { type Schema, schemaProblem } from '../../src/http/json-schema.js';

const SCHEMAS: Record<string, Schema> = {
  Status: { enum: ['enabled', 'disabled'], description: 'annotations are ignored' },
  Body: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 5 },
      count: { type: 'integer', minimum: 1, maximum: 100 },
      guard: { type: ['string', 'integer'] },
      tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 2, uniqueItems: true },
      share: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, format: 'float' },
      either: { oneOf: [{ type: 'string' }, { type: 'string', const: 'both' }, { type: 'boolean' }] },
      status: { $ref: '#/components/schemas/Status' },
      settings: { type: 'object', additionalProperties: {} },
    },
    required: ['title'],
    additionalProperties: false,
  },
};
const resolve = (ref: string) => SCHEMAS[ref.replace('#/components/schemas/', '')]!;
const check = (value: unknown) => schemaProblem(value, { $ref: '#/components/schemas/Body' }, resolve);

describe('the JSON Schema interpreter of request bodies', () => {
  it('accepts what the schema describes', () => {
    expect(check({ title: 'a', count: 100, guard: 7, tags: ['ab'], status: 'enabled', settings: { x: [1] } })).toBe(
      undefined,
    );
    expect(check({ title: 'héllo', guard: 'x', share: 0.5, either: true })).toBe(undefined);
  });

  it.each([
    [
      { title: 'a', titel: 'b' },
      ['titel'],
      'unknown field; accepted: title, count, guard, tags, share, either, status, settings',
    ],
    [{}, ['title'], 'is required'],
    [{ title: 5 }, ['title'], 'must be a string'],
    [{ title: 'a', guard: true }, ['guard'], 'must be a string or an integer'],
    [{ title: 'a', count: 1.5 }, ['count'], 'must be an integer'],
    [{ title: 'a', tags: 'ab' }, ['tags'], 'must be an array of strings'],
    [{ title: 'a', settings: [] }, ['settings'], 'must be an object'],
    [{ title: 'a', status: 'on' }, ['status'], 'must be "enabled" or "disabled"'],
    [{ title: '' }, ['title'], 'must not be empty'],
    [{ title: 'abcdef' }, ['title'], 'must be at most 5 characters'],
    [{ title: 'a', count: 0 }, ['count'], 'must be from 1 to 100'],
    [{ title: 'a', tags: ['a', 'b', 'c'] }, ['tags'], 'must hold at most 2 items'],
    [{ title: 'a', tags: ['ok', 'Not'] }, ['tags', 1], 'must match ^[a-z]+$'],
    [{ title: 'a', tags: ['ok', 'ok'] }, ['tags'], 'must not hold the same item twice'],
    [{ title: 'a', share: 1 }, ['share'], 'must be less than 1'],
    [{ title: 'a', share: 0 }, ['share'], 'must be more than 0'],
    [{ title: 'a', either: 'both' }, ['either'], 'must match exactly one of the forms it may take'],
  ])('refuses %j: %j %s', (value, path, message) => {
    expect(check(value)).toEqual({ path, message });
  });

  it('counts characters as code points, as JSON Schema does', () => {
    expect(check({ title: '😀😀😀😀😀' })).toBe(undefined);
  });

  it('refuses a schema with an assertion it does not know rather than let values through unchecked', () => {
    expect(() => schemaProblem('x', { type: 'string', minContains: 1 }, resolve)).toThrow(/minContains/);
  });
});
