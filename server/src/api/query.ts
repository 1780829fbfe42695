/** Query parameters of the list endpoints: each bad value is a 400 that names the parameter. */
import { API_LIMITS } from '@storefront-platform/sdk/internal';
import { badRequest } from '../http/http-error.js';

/** The single value of `name`, `undefined` when absent; 400 when repeated. */
export function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw badRequest(`Query parameter ${name} is given more than once`);
  return values[0];
}

/** A comma-separated list (`shop_ids=1,2`), without blanks; `undefined` when absent. */
export function list(query: URLSearchParams, name: string): string[] | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw badRequest(`Query parameter ${name} must list at least one value`);
  return items;
}

/** One of `values`; `undefined` when absent. */
export function oneOf<T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw badRequest(`Query parameter ${name} must be one of ${values.join(', ')}`);
  }
  return value as T;
}

/** An integer within `min`–`max`; `fallback` when absent. */
export function integer(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const value = single(query, name);
  if (value === undefined) return fallback;
  const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max)) throw badRequest(`Query parameter ${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** A free-text search, trimmed and lower-cased; `undefined` when absent or blank. */
export function search(query: URLSearchParams, name = 'q'): string | undefined {
  const value = single(query, name)?.trim().toLowerCase();
  if (value !== undefined && value.length > API_LIMITS.searchLength)
    throw badRequest(`Query parameter ${name} is too long`);
  return value || undefined;
}
