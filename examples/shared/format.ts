/** Formatting shared by the examples' output. */

/** An amount in integer cents as money of `currency`, e.g. `£12.50`. */
export function money(cents: number, currency: string, locale = 'en-GB'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}

/** `1 template`, `3 templates`; `many` for nouns that do not just take an `s`. */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}
