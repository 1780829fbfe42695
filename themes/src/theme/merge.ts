/**
 * A three-way merge of text by lines, as `git merge-file` does it: the changes from the base to each side (jsdiff's
 * `diffArrays`), applied together where they touch different lines, and written between conflict markers where
 * they touch the same or neighbouring lines differently.
 */
import { diffArrays } from 'diff';

/** The marker lines of a conflict: the folder's side first, then the server's. */
export const MARKERS = {
  ours: '<<<<<<< folder',
  separator: '=======',
  theirs: '>>>>>>> server',
} as const;

/** What a merge made. */
export interface MergeResult {
  text: string;
  /** How many regions were changed on both sides differently (written between markers). */
  conflicts: number;
}

/** Lines with their endings, so that the merge gives back the bytes it was given where nothing changed. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** A region of the base `[start, end)` that one side replaced with `lines`. */
interface Hunk {
  side: 'ours' | 'theirs';
  start: number;
  end: number;
  lines: string[];
}

function hunksOf(base: string[], other: string[], side: Hunk['side']): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | undefined;
  for (const part of diffArrays(base, other)) {
    if (!part.added && !part.removed) {
      if (open) hunks.push(open);
      open = undefined;
      at += part.value.length;
      continue;
    }
    open ??= { side, start: at, end: at, lines: [] };
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  if (open) hunks.push(open);
  return hunks;
}

/** The side's lines over the base region `[start, end)`, whose hunks of that side are `hunks` (in order). */
function sideOver(base: string[], start: number, end: number, hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const hunk of hunks) {
    out.push(...base.slice(at, hunk.start), ...hunk.lines);
    at = hunk.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

const ended = (lines: string[]) => {
  const text = lines.join('');
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
};

/**
 * Merges the changes from `base` to `ours` and from `base` to `theirs`. With `favour`, a region changed on both
 * sides differently takes that side's lines instead of markers (as `git merge-file --ours` / `--theirs`), and is
 * still counted in `conflicts`.
 */
export function merge3(base: string, ours: string, theirs: string, favour?: 'ours' | 'theirs'): MergeResult {
  if (ours === theirs) return { text: ours, conflicts: 0 };
  if (ours === base) return { text: theirs, conflicts: 0 };
  if (theirs === base) return { text: ours, conflicts: 0 };
  const lines = linesOf(base);
  const all = [...hunksOf(lines, linesOf(ours), 'ours'), ...hunksOf(lines, linesOf(theirs), 'theirs')].sort(
    (a, b) => a.start - b.start || a.end - b.end,
  );
  const out: string[] = [];
  let conflicts = 0;
  let at = 0;
  for (let i = 0; i < all.length; ) {
    // A region: the hunks that overlap or touch, on either side.
    const region = [all[i]!];
    let end = all[i]!.end;
    for (i++; i < all.length && all[i]!.start <= end; i++) {
      region.push(all[i]!);
      end = Math.max(end, all[i]!.end);
    }
    const start = region[0]!.start;
    out.push(...lines.slice(at, start));
    at = end;
    const mine = region.filter((h) => h.side === 'ours');
    const yours = region.filter((h) => h.side === 'theirs');
    const ourLines = sideOver(lines, start, end, mine);
    const theirLines = sideOver(lines, start, end, yours);
    if (!yours.length) out.push(...ourLines);
    else if (!mine.length || ourLines.join('') === theirLines.join('')) out.push(...theirLines);
    else {
      conflicts++;
      if (favour) {
        out.push(...(favour === 'ours' ? ourLines : theirLines));
        continue;
      }
      out.push(
        `${MARKERS.ours}\n`,
        ended(ourLines),
        `${MARKERS.separator}\n`,
        ended(theirLines),
        `${MARKERS.theirs}\n`,
      );
    }
  }
  out.push(...lines.slice(at));
  return { text: out.join(''), conflicts };
}

/** Whether `text` holds a line of conflict markers left by a merge. */
export function hasConflictMarkers(text: string): boolean {
  return /^(<<<<<<<|>>>>>>>) /m.test(text) && /^=======$/m.test(text);
}

/** The regions of a merge's `text` written between conflict markers, each side's lines as one string. */
export function conflictRegions(text: string): { ours: string; theirs: string }[] {
  const regions: { ours: string; theirs: string }[] = [];
  let side: 'ours' | 'theirs' | undefined;
  let current = { ours: '', theirs: '' };
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const bare = line.replace(/\n$/, '');
    if (side === undefined && bare === MARKERS.ours) side = 'ours';
    else if (side === 'ours' && bare === MARKERS.separator) side = 'theirs';
    else if (side === 'theirs' && bare === MARKERS.theirs) {
      regions.push(current);
      current = { ours: '', theirs: '' };
      side = undefined;
    } else if (side) current[side] += line;
  }
  return regions;
}
