/**
 * The fault rules' tests, run at each door (over real HTTP, and through MSW): the same rules, the same answers.
 */
import type { FaultRule, FaultRuleInput } from '@storefront-platform/server/msw';
import { expect, it } from 'vitest';

/** A sandbox's faults, reached through one door, and a request to the API it answers. */
export interface FaultDoor {
  add(rule: FaultRuleInput): Promise<FaultRule>;
  list(): Promise<FaultRule[]>;
  clear(): Promise<void>;
  /** A request to `path` of the sandbox's origin. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** What a refused rule is rejected with: its error's class, or its message. */
  refusal: RegExp | (new (...args: never[]) => Error);
}

/** Statuses of `count` GETs of a path the core answers 404 (so that a hit, 503, is told from a miss). */
async function statuses(door: FaultDoor, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await door.fetch('/v1/nowhere')).status);
  return seen;
}

/** Registers the scenarios in the calling `describe`; `door()` is the door of the current test. */
export function faultScenarios(door: () => FaultDoor): void {
  it('answers a status fault in the API error shape, with Retry-After, `times` times, then lets requests by', async () => {
    const d = door();
    await d.add({ kind: 'status', status: 503, retry_after: 2, method: 'get', path: '/v1/*', times: 2 });
    expect((await d.fetch('/v1/nowhere', { method: 'POST' })).status).not.toBe(503);
    for (let i = 0; i < 2; i++) {
      const response = await d.fetch('/v1/shops/s1/theme.json');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await response.json()).toEqual({ _class: ['errors'], message: 'Service unavailable' });
    }
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
    expect(await d.list()).toEqual([
      expect.objectContaining({ kind: 'status', method: 'GET', path: '/v1/*', times: 0, hits: 2, status: 503 }),
    ]);
    await d.clear();
    expect(await d.list()).toEqual([]);
  });

  it('matches `:name` segments whole, and a custom message', async () => {
    const d = door();
    await d.add({ kind: 'status', status: 429, message: 'Slow down', path: '/v1/shops/:shop_id/theme.json' });
    expect((await d.fetch('/v1/shops/a/b/theme.json')).status).toBe(404);
    const response = await d.fetch('/v1/shops/a/theme.json');
    expect(response.status).toBe(429);
    expect(((await response.json()) as { message: string }).message).toBe('Slow down');
  });

  it('holds a request for a delay fault, then the core answers it', async () => {
    const d = door();
    await d.add({ kind: 'delay', delay_ms: 300, path: '/v1/nowhere', times: 1 });
    let started = performance.now();
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await d.add({ kind: 'delay', delay_ms: [200, 260], seed: 3, times: 1 });
    started = performance.now();
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('cuts the connection for a reset fault: fetch rejects', async () => {
    const d = door();
    await d.add({ kind: 'reset', path: '/v1/nowhere', times: 1 });
    await expect(d.fetch('/v1/nowhere')).rejects.toThrow(TypeError);
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
  });

  it('cuts an answer short for a truncated fault: the headers, part of the body, then an error', async () => {
    const d = door();
    await d.add({ kind: 'truncated', path: '/v1/nowhere', bytes: 5, times: 1 });
    const response = await d.fetch('/v1/nowhere');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
    await expect(response.text()).rejects.toThrow();
    expect((await d.fetch('/v1/nowhere')).status).toBe(404);
  });

  it('refuses a bad rule with a clear error', async () => {
    const d = door();
    for (const bad of [
      { kind: 'explode' },
      { kind: 'status', status: 200 },
      { kind: 'delay' },
      { kind: 'delay', delay_ms: [5, 1] },
      { kind: 'reset', probability: 2 },
      { kind: 'reset', path: 'v1' },
      { kind: 'reset', status: 500 },
      { kind: 'truncated', bytes: -1 },
      { kind: 'status', typo: 1 },
    ]) {
      await expect(d.add(bad as FaultRuleInput)).rejects.toThrow(d.refusal);
    }
    expect(await d.list()).toEqual([]);
  });

  it('hits the same requests for the same seed and probability: 50 requests, 10 runs', async () => {
    const d = door();
    const run = async (seed: number) => {
      await d.clear();
      await d.add({ kind: 'status', status: 503, probability: 0.3, seed });
      return statuses(d, 50);
    };
    const first = await run(42);
    expect(first).toContain(503);
    expect(first).toContain(404);
    for (let i = 1; i < 10; i++) expect(await run(42)).toEqual(first);
    expect(await run(43)).not.toEqual(first);
  });
}
