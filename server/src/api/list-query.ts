/**
 * The query of each list endpoint, declared once: what a route reads, the link templates that advertise it
 * (the root's, a shop's preset ones) and the canonical links of every page all follow these lists.
 */

/** Paging variables, last in every list's template. */
export const PAGING_VARIABLES = ['page', 'per_page'] as const;
/** Filters of `{base}/products.json`, in the order of its template. */
export const PRODUCT_FILTERS = ['q', 'shop_ids', 'status', 'tags', 'sort'] as const;
/** Filters of `{base}/orders.json`, in the order of its template. */
export const ORDER_FILTERS = ['shop_ids', 'status', 'q', 'sort'] as const;
/** Filters of `{base}/shops.json`. */
export const SHOP_FILTERS = ['q'] as const;

/** A list's filters as read from a request: a list value goes on the wire comma-separated; absent ones stay out. */
export type FilterValues<F extends readonly string[]> = { [K in F[number]]: string | readonly string[] | undefined };

/** The filters as query parameters in the list's order: the canonical form in every link of its pages. */
export function filterParams<F extends readonly string[]>(filters: F, values: FilterValues<F>): [string, string][] {
  const params: [string, string][] = [];
  for (const name of filters as readonly F[number][]) {
    const value = values[name];
    if (value !== undefined) params.push([name, typeof value === 'string' ? value : value.join(',')]);
  }
  return params;
}

/**
 * The query part of a list's link template (RFC 6570): `{?q,shop_ids,…,page,per_page}`; with `preset`, that
 * filter is fixed to a value and the others follow it: `?shop_ids=1{&q,…,page,per_page}`.
 */
export function queryTemplate(filters: readonly string[], preset?: readonly [name: string, value: string]): string {
  const variables = [...filters, ...PAGING_VARIABLES];
  if (!preset) return `{?${variables.join(',')}}`;
  const [name, value] = preset;
  const rest = variables.filter((variable) => variable !== name);
  return `?${encodeURIComponent(name)}=${encodeURIComponent(value)}{&${rest.join(',')}}`;
}
