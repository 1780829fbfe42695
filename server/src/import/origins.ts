/**
 * Origin rewriting of an import: the source's addresses, wherever a stored field holds one (a template's body, a
 * theme's settings, a product's description, any string of any row), become the sandbox's. Stored rows hold no
 * address of their own (the server adds its origin as it renders), so only free text can carry one; an asset's
 * bytes are left as they are, since rewriting them would change the digest the copy must keep.
 */
import { addressesOf } from '../core/addresses.js';

/** Source addresses → sandbox addresses, longest first: an asset's full URL before the origin it starts with. */
export class OriginRewriter {
  readonly #pairs = new Map<string, string>();
  #pattern: RegExp | undefined;

  /** Rewrites `from` (a whole URL or an origin) to `to` wherever it appears. */
  map(from: string, to: string): void {
    if (!from || from === to) return;
    this.#pairs.set(from, to);
    this.#pattern = undefined;
  }

  /** Maps the origin of `url` to `origin`; a URL that is not one is ignored. */
  mapOrigin(url: string, origin: string): void {
    if (URL.canParse(url)) this.map(new URL(url).origin, origin);
  }

  /** `text` with every source address replaced. */
  text(text: string): string {
    if (this.#pairs.size === 0) return text;
    this.#pattern ??= new RegExp(
      [...this.#pairs.keys()]
        .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
        .map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'g',
    );
    return text.replace(this.#pattern, (found) => this.#pairs.get(found) ?? found);
  }

  /** A copy of `value` (any JSON) with every string rewritten, object keys included. */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.value(item)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.value(item)])) as T;
    }
    return value;
  }
}

/** The sandbox's origin when none is given: where `storefront-server --data DIR` listens by default. */
export const DEFAULT_SANDBOX_ORIGIN = 'http://localhost:4000';

/** `origin` checked as the server checks its public URL; a bad one is a `TypeError` naming `option`. */
export function sandboxOrigin(origin: string | undefined, option = 'publicUrl'): string {
  return addressesOf((origin ?? DEFAULT_SANDBOX_ORIGIN).replace(/\/$/, ''), option).origin;
}
