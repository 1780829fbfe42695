import { describe, expect, it } from 'vitest';
import { assertPreconditions, isNotModified } from '../../src/http/conditional.js';
import { type Entity, jsonEntity } from '../../src/http/entity.js';
import { formatHttpDate, parseHttpDate } from '../../src/http/http-date.js';
import { HttpError } from '../../src/http/http-error.js';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });
const entity: Entity = jsonEntity({ a: 1 }, Date.UTC(2026, 0, 2, 3, 4, 5, 678));

describe('HTTP dates', () => {
  it('reads the three forms of RFC 9110 §5.6.7 as UTC', () => {
    const ms = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(ms);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(ms);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(ms);
    expect(formatHttpDate(ms)).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
  });

  it('refuses what is not an HTTP date', () => {
    for (const value of ['1994-11-06T08:49:37Z', 'yesterday', '', 'Sun, 06 Nov 1994 08:49:37 +0000']) {
      expect(parseHttpDate(value)).toBeUndefined();
    }
  });
});

describe('isNotModified', () => {
  const lastModified = formatHttpDate(entity.lastModified);

  it('keeps Last-Modified at whole seconds, so that an echoed date matches', () => {
    expect(entity.lastModified % 1000).toBe(0);
    expect(isNotModified(headers({ 'if-modified-since': lastModified }), entity)).toBe(true);
  });

  it('is modified when the date is older, unreadable or absent', () => {
    const older = formatHttpDate(entity.lastModified - 1000);
    expect(isNotModified(headers({ 'if-modified-since': older }), entity)).toBe(false);
    expect(isNotModified(headers({ 'if-modified-since': 'soon' }), entity)).toBe(false);
    expect(isNotModified(headers({}), entity)).toBe(false);
  });

  it('lets If-None-Match decide when present, even against a matching date', () => {
    expect(isNotModified(headers({ 'if-none-match': '"other"', 'if-modified-since': lastModified }), entity)).toBe(
      false,
    );
    expect(isNotModified(headers({ 'if-none-match': `W/${entity.etag}` }), entity)).toBe(true);
  });

  it('is modified at a weak date, one whose second saw two versions, but not at a later date', () => {
    const weak: Entity = { ...entity, weakLastModified: true };
    expect(isNotModified(headers({ 'if-modified-since': lastModified }), weak)).toBe(false);
    const later = formatHttpDate(entity.lastModified + 1000);
    expect(isNotModified(headers({ 'if-modified-since': later }), weak)).toBe(true);
    expect(isNotModified(headers({ 'if-none-match': entity.etag, 'if-modified-since': lastModified }), weak)).toBe(
      true,
    );
  });
});

describe('assertPreconditions', () => {
  const status = (values: Record<string, string>, current: Entity | undefined) => {
    try {
      assertPreconditions(headers(values), current);
      return 'pass';
    } catch (error) {
      return (error as HttpError).status;
    }
  };

  it('compares If-Match strongly: a weak tag never matches', () => {
    expect(status({ 'if-match': entity.etag }, entity)).toBe('pass');
    expect(status({ 'if-match': `"x", ${entity.etag}` }, entity)).toBe('pass');
    expect(status({ 'if-match': `W/${entity.etag}` }, entity)).toBe(412);
    expect(status({ 'if-match': '"x"' }, entity)).toBe(412);
  });

  it('fails If-Match: * only when the resource does not exist', () => {
    expect(status({ 'if-match': '*' }, entity)).toBe('pass');
    expect(status({ 'if-match': '*' }, undefined)).toBe(412);
  });

  it('falls back to If-Unmodified-Since without If-Match', () => {
    const at = formatHttpDate(entity.lastModified);
    const before = formatHttpDate(entity.lastModified - 1000);
    expect(status({ 'if-unmodified-since': at }, entity)).toBe('pass');
    expect(status({ 'if-unmodified-since': before }, entity)).toBe(412);
    expect(status({ 'if-match': entity.etag, 'if-unmodified-since': before }, entity)).toBe('pass');
    expect(status({ 'if-unmodified-since': at }, { ...entity, weakLastModified: true })).toBe(412);
  });

  it('passes without preconditions', () => {
    expect(status({}, entity)).toBe('pass');
    expect(new HttpError(412, 'x').toBody()).toEqual({ _class: ['errors'], message: 'x' });
  });
});
