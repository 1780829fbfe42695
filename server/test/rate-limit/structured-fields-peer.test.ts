/**
 * The rate limit fields (draft-ietf-httpapi-ratelimit-headers) and `Idempotency-Key`
 * (draft-ietf-httpapi-idempotency-key-header) are Structured Fields (RFC 9651): checked here against a peer's
 * parser and serializer (`structured-headers`), not only against our own reading of them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRateLimit } from '@storefront-platform/sdk';
import { type Item, parseItem, parseList, serializeItem } from 'structured-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { clientToken } from '../helpers/test-server.js';

describe('structured fields, read by a peer', () => {
  let dir: string;
  let server: StorefrontServer;
  let token: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sf-peer-'));
    server = await createServer({
      port: 0,
      data: join(dir, 'db.json'),
      products: 3,
      explorer: false,
      rateLimit: '5/60s',
    });
    token = await clientToken(server);
  });

  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("sends RateLimit and RateLimit-Policy that a peer parses as lists of one string item with the draft's parameters", async () => {
    const response = await fetch(`${server.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } });
    const [limit] = parseList(response.headers.get('ratelimit')!) as Item[];
    const [policy] = parseList(response.headers.get('ratelimit-policy')!) as Item[];
    expect(limit![0]).toBe('app-user');
    expect(policy![0]).toBe('app-user');
    expect(Object.fromEntries(policy![1])).toEqual({ q: 5, w: 60 });
    const { r, t } = Object.fromEntries(limit![1]) as { r: number; t: number };
    expect(r).toBe(4);
    expect(t).toBeGreaterThan(0);
  });

  it('reads what a peer serializes as the SDK reads it: the tightest policy, tokens and strings, spaces', () => {
    const fields = (limit: string, policy: string) =>
      readRateLimit(new Headers({ ratelimit: limit, 'ratelimit-policy': policy }));
    const limit = [
      [
        'burst',
        new Map([
          ['r', 2],
          ['t', 1],
        ]),
      ],
      [
        'day',
        new Map([
          ['r', 900],
          ['t', 3600],
        ]),
      ],
    ] as Item[];
    const policy = [
      [
        'burst',
        new Map([
          ['q', 10],
          ['w', 1],
        ]),
      ],
      [
        'day',
        new Map([
          ['q', 1000],
          ['w', 86400],
        ]),
      ],
    ] as Item[];
    const serialized = limit.map((item) => serializeItem(item)).join(', ');
    const policies = policy.map((item) => serializeItem(item)).join(',   ');
    expect(fields(serialized, policies)).toEqual({ remaining: 2, resetSeconds: 1, quota: 10, windowSeconds: 1 });
    // A token as the policy's name, as the draft's examples write it.
    expect(fields('default;r=3;t=9', 'default;q=5;w=60')).toEqual({
      remaining: 3,
      resetSeconds: 9,
      quota: 5,
      windowSeconds: 60,
    });
  });

  it('takes an Idempotency-Key a peer serialized (escapes included) and replays its answer', async () => {
    const key = serializeItem(['order "7" \\ retry', new Map()]);
    expect(parseItem(key)[0]).toBe('order "7" \\ retry');
    const post = () =>
      fetch(`${server.baseUrl}/themes/1/templates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ file_name: 'peer-key.html', body: 'x' }),
      });
    expect((await post()).status).toBe(201);
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
