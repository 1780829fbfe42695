/** An amount in integer cents, in `currency` (written as `locale` says, else the browser's way). */
export function price(cents: number, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}
