/** True for `application/json`, `application/hal+json`, `application/problem+json` and the like. */
export function isJsonType(contentType: string | null | undefined): boolean {
  return /^application\/(?:[\w.-]+\+)?json\b/i.test((contentType ?? '').trim());
}

/** A plain record of `headers` with lower-case names. */
export function headerRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers);
}

/**
 * A body as data: parsed JSON when the content type says JSON, else (or when it does not parse) the text, so
 * that an error still shows what came; `undefined` when empty.
 */
export function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  if (!isJsonType(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
