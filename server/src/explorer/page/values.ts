/** How property values read: scalars as they are, long or multi-line text cut short in tables, the rest as JSON. */

/** Property names that name a resource, best first. */
const LABELS = ['title', 'file_name', 'name', 'code', 'user_name', 'login', 'id'];

/** What to call a resource with these properties. */
export function labelOf(properties: Record<string, unknown>, fallback: string): string {
  for (const name of LABELS) {
    const value = properties[name];
    if ((typeof value === 'string' && value) || typeof value === 'number') return String(value);
  }
  return fallback;
}

export function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A value as text; `short` cuts text at its first line or 60 characters. */
export function valueText(value: unknown, short = false): string {
  if (typeof value === 'string') {
    if (!short) return value;
    const line = value.split('\n', 1)[0]!;
    return line.length > 60 || line.length < value.length ? `${line.slice(0, 60)}…` : line;
  }
  return isScalar(value) ? String(value) : JSON.stringify(value, null, 2);
}
