import { FREE_MS, POLL_MS, PROBE_MS, type RateBudget } from '../pacing/rate-budget.js';
import type { RedisStoreOptions } from './redis-client.js';
import { redisStore } from './redis-commands.js';

/** Epoch ms by Redis's clock, shared by the scripts: every instance of a fleet reads the one clock. */
const NOW = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)`;

/**
 * `RateBudget.take` on the hash KEYS[1], by the rules of `pacing/rate-budget.ts` (its fields are that file's
 * `Budget`'s): 0 when a request may go, else the ms to wait. ARGV: the probe's ms, the poll's ms, the key's TTL ms.
 */
const TAKE = `${NOW}
local b = redis.call('HMGET', KEYS[1], 'left', 'end', 'guard', 'late', 'quota', 'wms', 'probe', 'free')
local left, e, guard, late = tonumber(b[1]), tonumber(b[2]) or 0, tonumber(b[3]) or 0, tonumber(b[4]) or 0
local quota, wms, probe, free = tonumber(b[5]), tonumber(b[6]), tonumber(b[7]) or 0, tonumber(b[8]) or 0
if left and now >= e then
  if not quota then
    left = nil
    redis.call('HDEL', KEYS[1], 'left')
  else
    guard = guard + now - e
    left = quota - late
    late = 0
    e = now + wms
    redis.call('HSET', KEYS[1], 'left', left, 'end', e, 'guard', guard, 'late', 0)
  end
end
if not left then
  if now < free then return 0 end
  if now < probe then return math.min(probe - now, tonumber(ARGV[2])) end
  redis.call('HSET', KEYS[1], 'probe', now + tonumber(ARGV[1]))
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 0
end
if left <= 0 then return e - now end
if now >= e - guard then late = late + 1 end
redis.call('HSET', KEYS[1], 'left', left - 1, 'late', late)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0`;

/**
 * `RateBudget.observe` on the hash KEYS[1]. ARGV: '1' with a reading, '0' for a successful answer without one, ''
 * for an attempt that tells nothing; remaining, reset seconds, quota and window seconds ('' when unnamed), the round
 * trip's ms, the free ms, the key's TTL ms.
 */
const OBSERVE = `${NOW}
local b = redis.call('HMGET', KEYS[1], 'left', 'end', 'wms')
local left, e, wms = tonumber(b[1]), tonumber(b[2]) or 0, tonumber(b[3])
if ARGV[1] ~= '1' then
  if not left then redis.call('HSET', KEYS[1], 'free', now + tonumber(ARGV[7]))
  elseif ARGV[1] == '0' then
    redis.call('HDEL', KEYS[1], 'left', 'quota', 'wms')
    redis.call('HSET', KEYS[1], 'probe', 0)
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  return 0
end
local r, t, latency = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[6])
if ARGV[4] ~= '' then
  wms = tonumber(ARGV[5]) * 1000
  redis.call('HSET', KEYS[1], 'quota', ARGV[4], 'wms', wms)
end
local ends = now + t * 1000
local half = (wms or t * 1000) / 2
if left and ends < e - half then return 0 end
if (not left) or ends > e + half then
  redis.call('HSET', KEYS[1], 'left', r, 'end', ends, 'guard', 1000 + latency, 'late', 0, 'probe', 0, 'free', 0)
elseif r < left then
  redis.call('HSET', KEYS[1], 'left', r)
end
if left and ends < e and ends >= e - half then redis.call('HSET', KEYS[1], 'end', ends, 'guard', 1000 + latency) end
redis.call('PEXPIRE', KEYS[1], ARGV[8])
return 0`;

/** A budget nobody used for this long is forgotten. */
const TTL_MS = String(86_400_000);

/**
 * A {@link RateBudget} in Redis, shared by every instance of an app: one budget per authorization (token owner),
 * so that a fleet acting for one app and user paces itself as one client would, queued requests of every instance
 * included. The budget of an owner is a hash `{prefix}:rate:{owner}`, read and changed by one script per request
 * (on Redis's clock, the same for every instance) and one per answer, each atomic. When Redis fails, requests go
 * unpaced (the client's retries still answer a 429). A `client` that is no `RedisClient` throws a `TypeError` at once.
 *
 * @example
 * const client = createClient({ baseUrl, auth, pacing: createRedisRateBudget({ client: redis, prefix: 'myapp' }) });
 */
export function createRedisRateBudget(options: RedisStoreOptions): RateBudget {
  const store = redisStore(options);
  const key = (owner: string) => store.key('rate', owner);
  return {
    async take(owner) {
      return Number(await store.run(['EVAL', TAKE, '1', key(owner), String(PROBE_MS), String(POLL_MS), TTL_MS]));
    },
    async observe(owner, reading, latencyMs) {
      const fields = reading
        ? [
            '1',
            String(reading.remaining),
            String(reading.resetSeconds),
            String(reading.quota ?? ''),
            String(reading.windowSeconds ?? ''),
          ]
        : [reading === null ? '0' : '', '0', '0', '', ''];
      await store.run([
        'EVAL',
        OBSERVE,
        '1',
        key(owner),
        ...fields,
        String(Math.round(latencyMs)),
        String(FREE_MS),
        TTL_MS,
      ]);
    },
  };
}
