/** True for `application/json`, `application/hal+json`, `application/problem+json` and the like. */
export function isJsonType(contentType: string | null | undefined): boolean {
  return /^application\/(?:[\w.-]+\+)?json\b/i.test((contentType ?? '').trim());
}

/** A plain record of `headers` with lower-case names. */
export function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}
