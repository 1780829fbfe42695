import { describe, expect, it } from 'vitest';
import { jsonEntity } from '../../src/http/entity.js';
import { RepresentationCache } from '../../src/http/representation-cache.js';

const T0 = Date.UTC(2026, 0, 1);

describe('RepresentationCache', () => {
  it('builds once per revision tuple', () => {
    const cache = new RepresentationCache({ now: () => T0 });
    let builds = 0;
    const get = (revisions: number[]) =>
      cache.cached('k', revisions, () => {
        builds++;
        return jsonEntity({ builds }, T0);
      });
    const first = get([1, 1]);
    expect(get([1, 1])).toBe(first);
    expect(builds).toBe(1);
    get([1, 2]);
    expect(builds).toBe(2);
  });

  it('keeps the previous entity, validators included, when a rebuild gives the same bytes', () => {
    const cache = new RepresentationCache({ now: () => T0 + 60_000 });
    const first = cache.cached('k', [1], () => jsonEntity({ a: 1 }, T0));
    const again = cache.cached('k', [2], () => jsonEntity({ a: 1 }, T0));
    expect(again).toBe(first);
  });

  it('moves Last-Modified forward when the bytes change but the data’s own timestamp does not, never past now', () => {
    let now = T0 + 60_000;
    const cache = new RepresentationCache({ now: () => now });
    const first = cache.cached('k', [1], () => jsonEntity({ items: [1, 2] }, T0));
    expect(first.lastModified).toBe(T0);
    // A member was removed: the newest remaining timestamp is no newer than before.
    const second = cache.cached('k', [2], () => jsonEntity({ items: [1] }, T0));
    expect(second.etag).not.toBe(first.etag);
    expect(second).toMatchObject({ lastModified: T0 + 60_000 });
    expect(second.weakLastModified).toBeUndefined();
    // Another change within the same second cannot move it without running ahead of the clock: the date is weak.
    now += 400;
    const third = cache.cached('k', [3], () => jsonEntity({ items: [] }, T0));
    expect(third).toMatchObject({ lastModified: T0 + 60_000, weakLastModified: true });
    const fourth = cache.cached('k', [4], () => jsonEntity({ items: [4] }, T0));
    expect(fourth).toMatchObject({ lastModified: T0 + 60_000, weakLastModified: true });
    // A later second tells the next version apart again.
    now += 10_000;
    const fifth = cache.cached('k', [5], () => jsonEntity({ items: [5] }, T0));
    expect(fifth.lastModified).toBe(T0 + 70_000);
    expect(fifth.weakLastModified).toBeUndefined();
    const newer = cache.cached('k', [6], () => jsonEntity({ items: [3] }, T0 + 120_000));
    expect(newer.lastModified).toBe(T0 + 120_000);
  });

  it('makes the date weak when the data’s own timestamps differ within one second', () => {
    const cache = new RepresentationCache({ now: () => T0 + 900 });
    cache.cached('k', [1], () => jsonEntity({ body: 'a' }, T0 + 100));
    const second = cache.cached('k', [2], () => jsonEntity({ body: 'b' }, T0 + 500));
    expect(second).toMatchObject({ lastModified: T0, weakLastModified: true });
  });

  it('drops the least recently used entries past its bound', () => {
    const cache = new RepresentationCache({ now: () => T0 }, { entities: 2 });
    let builds = 0;
    const get = (key: string) =>
      cache.cached(key, [], () => {
        builds++;
        return jsonEntity({ key }, T0);
      });
    get('a');
    get('b');
    get('a');
    get('c');
    expect(builds).toBe(3);
    get('a');
    expect(builds).toBe(3);
    get('b');
    expect(builds).toBe(4);
  });

  it('memoises derived values by revision', () => {
    const cache = new RepresentationCache({ now: () => T0 });
    let computed = 0;
    const get = (revision: number) => cache.memo('ids', [revision], () => ++computed);
    expect(get(1)).toBe(1);
    expect(get(1)).toBe(1);
    expect(get(2)).toBe(2);
  });
});
