/**
 * How a list is ordered: by one key per row, ties broken by id, so that every row has exactly one place and a
 * position in the list can be named by a key and an id alone (what a cursor carries, see `cursor.ts`).
 */

/** A sort field: how to read its key from a row, and which type that key has (a cursor's key must have it). */
export interface SortKey<R> {
  type: 'string' | 'number';
  of(row: R): string | number;
}

/** The order of one request's list. */
export interface ListOrder<R> extends SortKey<R> {
  /** The field as `sort` names it (`created_on`), or the fixed order of a list without `sort` (`name`). */
  field: string;
  descending: boolean;
}

/** A place in an order: a key and an id, with the id as a number when it is one (ids of the stores are). */
export interface Position {
  key: string | number;
  id: string;
  /** `Number(id)`, computed once: numeric ids compare as numbers (`9` before `10`). */
  n: number;
}

/** The order a `sort` value such as `created_on.asc` names among `keys` (validated by the caller). */
export function orderOf<R>(sort: string, keys: Readonly<Record<string, SortKey<R>>>): ListOrder<R> {
  const [field, direction] = sort.split('.') as [string, string];
  return { field, descending: direction === 'desc', ...keys[field]! };
}

/** The place of `row` in `order`. */
export function positionOf<R extends { id: string }>(order: SortKey<R>, row: R): Position {
  return { key: order.of(row), id: row.id, n: Number(row.id) };
}

/** Ascending comparison of two places: by key, then by id (numerically when both are numbers). */
export function comparePositions(a: Position, b: Position): number {
  if (a.key < b.key) return -1;
  if (a.key > b.key) return 1;
  return a.n - b.n || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** `rows` in `order`. Keys are computed once per row, not once per comparison. */
export function sortRows<R extends { id: string }>(rows: readonly R[], order: ListOrder<R>): R[] {
  const placed = rows.map((row) => ({ row, at: positionOf(order, row) }));
  placed.sort((a, b) => comparePositions(a.at, b.at));
  const out = placed.map((entry) => entry.row);
  return order.descending ? out.reverse() : out;
}
