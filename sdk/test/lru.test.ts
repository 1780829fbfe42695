import { describe, expect, it } from 'vitest';
import { Lru } from '../src/shared/lru.js';

describe('Lru', () => {
  it('drops the least recently used beyond maxEntries, counting get as a use and peek not', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    expect(lru.set('a', 1)).toEqual([]);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    expect(lru.set('c', 3)).toEqual([['b', 2]]);
    expect(lru.peek('a')).toBe(1);
    expect(lru.set('d', 4)).toEqual([['a', 1]]);
    expect([lru.has('c'), lru.has('d'), lru.size]).toEqual([true, true, 2]);
  });

  it('bounds the total weight, keeps nothing heavier than the bound, and forgets a replaced weight', () => {
    const lru = new Lru<string, string>({ maxEntries: 10, maxWeight: 10, weigh: (_, value) => value.length });
    lru.set('a', 'xxxx');
    lru.set('b', 'xxxx');
    expect(lru.set('c', 'xxxx')).toEqual([['a', 'xxxx']]);
    expect(lru.weight).toBe(8);
    expect(lru.set('big', 'x'.repeat(11))).toEqual([]);
    expect(lru.has('big')).toBe(false);
    expect(lru.set('b', 'x')).toEqual([]);
    expect(lru.weight).toBe(5);
    expect(lru.delete('c')).toBe('xxxx');
    expect(lru.delete('c')).toBeUndefined();
    expect([lru.weight, lru.size]).toEqual([1, 1]);
  });
});
