/**
 * Every write to a theme, its templates or its assets moves the theme's `updated_on`, so that the theme's
 * validators (and its cached representation) change with any of its parts.
 */
import type { ThemeRow, Transaction } from '../../store/types.js';

/**
 * The `updated_on` of a row written at `now` (epoch ms): strictly later than `previous`, so that two writes
 * in the same millisecond still tell apart.
 */
export function nextTimestamp(previous: string | undefined, now: number): string {
  const last = previous === undefined ? Number.NEGATIVE_INFINITY : Date.parse(previous);
  return new Date(Math.max(now, last + 1)).toISOString();
}

/** Marks the theme as changed at `now`; returns the new row. */
export function touchTheme(tx: Transaction, theme: ThemeRow, now: number): ThemeRow {
  const current = tx.get('themes', theme.id) ?? theme;
  return tx.update('themes', theme.id, { updated_on: nextTimestamp(current.updated_on, now) });
}
