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

/** The items of a list field as name (its string or token) and integer parameters; malformed items are left out. */
function items(field: string | null): [string, Record<string, number>][] {
  return (field ?? '').split(',').flatMap((member) => {
    const [name = '', ...params] = member.split(';').map((part) => part.trim());
    if (!/^("[^"\\]*"|[A-Za-z*][\w:.*/%-]*)$/.test(name)) return [];
    const values: Record<string, number> = {};
    for (const [key, value = ''] of params.map((param) => param.split('=')))
      if (/^\d{1,15}$/.test(value)) values[key!] = +value;
    return [[name.replace(/"/g, ''), values]];
  });
}

/** The reading of `headers`, or `undefined` when they carry no readable `RateLimit` field. */
export function readRateLimit(headers: Pick<Headers, 'get'>): RateLimitReading | undefined {
  const [tightest] = items(headers.get('ratelimit'))
    .filter(([, values]) => values.r !== undefined)
    .sort((a, b) => a[1].r! - b[1].r!);
  if (!tightest) return undefined;
  const { q, w } = items(headers.get('ratelimit-policy')).find(([name]) => name === tightest[0])?.[1] ?? {};
  return {
    remaining: tightest[1].r!,
    resetSeconds: tightest[1].t ?? 0,
    ...(q !== undefined && w ? { quota: q, windowSeconds: w } : {}),
  };
}
