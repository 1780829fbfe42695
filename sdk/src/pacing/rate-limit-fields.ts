/**
 * The rate limit fields of an answer, draft-ietf-httpapi-ratelimit-headers: `RateLimit: "name";r=50;t=30` (what is
 * left, and the seconds within which no more may be used) and `RateLimit-Policy: "name";q=100;w=60` (the quota per
 * window). Lists of structured fields (RFC 9651), read here as far as pacing needs: a malformed item is ignored, as
 * the draft asks.
 */

/** What an answer said of the rate limit it counted against. */
export interface RateLimitReading {
  /** Requests left (`r`): of the most restrictive policy when there are several. */
  remaining: number;
  /** Seconds within which no more than `remaining` may be sent (`t`); 0 when the field gave none. */
  resetSeconds: number;
  /** That policy's quota per window (`q` of `RateLimit-Policy`), when the answer named it. */
  quota?: number;
  /** That policy's window in seconds (`w`), when the answer named it. */
  windowSeconds?: number;
}

type Item = { name: string; params: Record<string, number> };

/** The items of a list field whose integer parameters could be read; `name` is the item's string or token. */
function items(field: string | null): Item[] {
  if (!field) return [];
  return field.split(',').flatMap((member) => {
    const [name = '', ...params] = member.split(';').map((part) => part.trim());
    if (!/^("[^"\\]*"|[A-Za-z*][\w:.*/%-]*)$/.test(name)) return [];
    const item: Item = { name: name.replace(/^"|"$/g, ''), params: {} };
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key && value !== undefined && /^\d{1,15}$/.test(value)) item.params[key] = Number(value);
    }
    return [item];
  });
}

/** The reading of `headers`, or `undefined` when they carry no readable `RateLimit` field. */
export function readRateLimit(headers: Pick<Headers, 'get'>): RateLimitReading | undefined {
  let tightest: Item | undefined;
  for (const item of items(headers.get('ratelimit'))) {
    if (item.params.r !== undefined && (!tightest || item.params.r < tightest.params.r!)) tightest = item;
  }
  if (!tightest) return undefined;
  const reading: RateLimitReading = { remaining: tightest.params.r!, resetSeconds: tightest.params.t ?? 0 };
  const policy = items(headers.get('ratelimit-policy')).find((item) => item.name === tightest.name);
  if (policy?.params.q !== undefined && policy.params.w) {
    reading.quota = policy.params.q;
    reading.windowSeconds = policy.params.w;
  }
  return reading;
}
