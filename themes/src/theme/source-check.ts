/**
 * Whether a development theme looks like a whole copy of the theme it is to replace. A development theme whose
 * creation was cut short holds only part of production's files, and the server may still link it as the shop's
 * development theme (older servers do; deletions through the API make one on any server): published, it deletes
 * the rest of production; pulled, it deletes the rest of the folder. So before either, the counts are compared.
 */
import type { Theme } from '@storefront-platform/sdk';

/**
 * "Far fewer files": the development theme lacks more than this share of production's files. A redesign deletes
 * some files; a theme that lacks over a quarter of them is far more likely a broken copy than a design.
 */
export const MISSING_SHARE = 0.25;
/** Below this many missing files a small theme's change is not questioned, whatever the share. */
export const MISSING_MIN = 10;

/** The counts the check compares. */
export interface SourceCounts {
  /** The files production holds (before a publish began, for a publish resumed). */
  production: number;
  /** How many of them the development theme lacks: what a publish would delete. */
  missing: number;
}

/** Why a development theme should not replace production's files without a confirmation. */
export interface SourceDoubt {
  /** The server marks the theme incomplete (`complete: false`), or it lacks too many of production's files. */
  reason: 'incomplete' | 'thin';
  /** One line that says what is wrong, fit to show. */
  message: string;
}

/** Whether the server marks a theme as not fully written (a copy still under way or cut short). */
function markedIncomplete(theme: Theme): boolean {
  return (theme.properties as { complete?: unknown }).complete === false;
}

/** The doubt about `development` as the source of production's files, `undefined` when it looks whole. */
export function doubtAbout(development: Theme, counts: SourceCounts): SourceDoubt | undefined {
  if (markedIncomplete(development)) {
    return { reason: 'incomplete', message: 'the server marks the development theme as incomplete' };
  }
  const { production, missing } = counts;
  // At least MISSING_MIN missing, so production's count is plural too.
  if (missing < MISSING_MIN || missing <= production * MISSING_SHARE) return undefined;
  return {
    reason: 'thin',
    message: `the development theme lacks ${missing} of the ${production} files of production (more than a quarter): its copy may have been cut short`,
  };
}

/** How many of `production`'s paths `development` lacks. */
export function missingFrom(production: Iterable<string>, development: ReadonlyMap<string, unknown>): number {
  let missing = 0;
  for (const path of production) if (!development.has(path)) missing++;
  return missing;
}
