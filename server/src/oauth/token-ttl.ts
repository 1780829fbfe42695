/** Seconds an access token lives unless `tokenTtl` says otherwise (the CLI's banner shows it too). */
export const DEFAULT_TOKEN_TTL = 3600;

/** The `tokenTtl` option of the server or the mock, or the default: a positive whole number of seconds. */
export function tokenTtlOf(given: number | undefined): number {
  const ttl = given ?? DEFAULT_TOKEN_TTL;
  if (!Number.isInteger(ttl) || ttl <= 0) {
    throw new RangeError(`tokenTtl must be a positive whole number of seconds, got ${ttl}`);
  }
  return ttl;
}
