/**
 * The weights of an `Accept`-style list (RFC 9110 §12.4.2): `gzip;q=0.5, identity`, `text/html, *\/*;q=0.8`. The
 * highest weight wins; `q=0` means "not acceptable"; a weight that is not a number counts as 0, the safe reading.
 */

/** Each listed name (lowercased, parameters other than `q` dropped) and its weight, 1 when none is given. */
export function weights(value: string | null | undefined): Map<string, number> {
  const listed = new Map<string, number>();
  if (!value) return listed;
  for (const part of value.split(',')) {
    const [name = '', ...params] = part.split(';');
    const key = name.trim().toLowerCase();
    if (!key) continue;
    let weight = 1;
    for (const param of params) {
      const [attribute, raw] = param.split('=');
      if (attribute?.trim().toLowerCase() !== 'q') continue;
      const parsed = Number(raw?.trim());
      weight = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
    }
    // A name listed twice keeps its first weight.
    if (!listed.has(key)) listed.set(key, weight);
  }
  return listed;
}

/** The weight of the first of `names` that is listed (the most specific first), or `undefined`. */
export function weightOf(listed: ReadonlyMap<string, number>, ...names: string[]): number | undefined {
  for (const name of names) {
    const weight = listed.get(name);
    if (weight !== undefined) return weight;
  }
  return undefined;
}
