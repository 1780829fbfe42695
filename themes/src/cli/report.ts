/** How commands show files and transfers: one line per file, a summary line, the exit code they make. */
import { ExitCode } from '../errors.js';
import { printable, printableWhole } from '../printable.js';
import type { FileChange } from '../theme/changes.js';
import { describeChange } from '../theme/changes.js';
import type { OversizeFile } from '../theme/local.js';
import type { ThemeTarget } from '../theme/manifest.js';
import type { OnProgress } from '../theme/results.js';
import { countActions, type FileAction, type FileResult } from '../theme/results.js';
import type { Output } from './output.js';
import type { Progress } from './progress.js';

const ACTION_STYLE: Record<FileAction, 'green' | 'red' | 'yellow' | 'cyan' | 'dim'> = {
  created: 'green',
  updated: 'cyan',
  deleted: 'red',
  unchanged: 'dim',
  merged: 'cyan',
  conflict: 'yellow',
  failed: 'red',
  skipped: 'red',
};

/** `1 file`, `3 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Lines for the files of a transfer; after a progress bar, only those that need attention. */
export function printFiles(output: Output, files: readonly FileResult[], { quiet = false } = {}): void {
  for (const file of files) {
    if (quiet && file.action !== 'conflict' && file.action !== 'failed' && file.action !== 'skipped') continue;
    const message = file.message ? ` (${printableWhole(file.message)})` : '';
    output.line(
      `  ${output.paint(ACTION_STYLE[file.action], file.action.padEnd(8))} ${printable(file.path)}${message}`,
    );
  }
}

/** `2 created, 1 deleted, 1 conflict`; `nothing` when empty. */
export function countsOf(files: readonly FileResult[]): string {
  const counts = countActions(files);
  const parts = (Object.entries(counts) as [FileAction, number][])
    .filter(([, n]) => n > 0)
    .map(([action, n]) => (action === 'conflict' ? plural(n, action) : `${n} ${action}`));
  return parts.join(', ') || 'nothing';
}

/** 1 when a file failed or was skipped (the folder lacks it), else 3 when one was left as a conflict, else 0. */
export function exitCodeOf(files: readonly FileResult[]): ExitCode {
  const counts = countActions(files);
  if (counts.failed || counts.skipped) return ExitCode.failure;
  return counts.conflict ? ExitCode.conflicts : ExitCode.ok;
}

/**
 * The hint after conflicts, which say which side `--force` makes win. A push to an environment with a manifest of
 * its own (another shop than the folder's default) gets no pull: the folder holds the default's theme, and pulling
 * that shop's into it would mix the two (the default's next push would send the other shop's files).
 */
export function conflictHint(output: Output, files: readonly FileResult[], environment?: { name: string }): void {
  if (!countActions(files).conflict) return;
  if (environment) {
    const { name } = environment;
    output.line(
      output.paint(
        'yellow',
        `Conflicts were left alone: the theme of environment "${name}" holds these files otherwise. ` +
          `push --env ${name} --force sends the folder's version; to bring that shop's changes, pull its theme into ` +
          'a folder of its own and copy what should stay (pulled here, it would mix into the folder).',
      ),
    );
    return;
  }
  output.line(
    output.paint(
      'yellow',
      'Conflicts were left alone: run diff to see them; pull --merge merges both sides (templates), ' +
        "pull --force takes the server's version, push --force sends yours.",
    ),
  );
}

/**
 * A progress bar driven by a transfer's `onProgress` (created at the first file, when the total is known);
 * `done` removes it and says whether one was drawn.
 */
export function transferProgress(output: Output, label: string): { onProgress: OnProgress; done(): boolean } {
  let bar: Progress | undefined;
  return {
    onProgress: (p) => {
      bar ??= output.progress(p.total, label);
      bar.tick(p.done, p.total, p.path);
    },
    done() {
      bar?.stop();
      return bar?.visible ?? false;
    },
  };
}

/** A change as JSON. */
export function changeJson(change: FileChange) {
  return {
    path: change.path,
    kind: change.kind,
    name: change.name,
    local: change.local ?? null,
    remote: change.remote ?? null,
    conflict: change.conflict,
  };
}

/** A line for a path left alone, and why: `ignored (symbolic link)`, `skipped (unsafe name: …)`. */
export function ignoredLine(output: Output, words: string, path: string): string {
  return `  ${output.paint('dim', words.padEnd(28))} ${printable(path)}`;
}

/** The error line of a file in the folder over the API's size limit, which no command reads. */
export function oversizeLine(output: Output, { path, size, limit }: OversizeFile): string {
  const words = `error: ${size} bytes, over the API's limit of ${limit}: not read`;
  return `  ${output.paint('red', 'too large'.padEnd(28))} ${printable(path)} (${words})`;
}

/** The lines for the folder's symbolic links, which no command follows. */
export function printLinks(output: Output, links: readonly string[]): void {
  for (const link of links) output.line(ignoredLine(output, 'ignored (symbolic link)', link));
}

/** A change as a line of status. */
export function changeLine(output: Output, change: FileChange): string {
  const words = describeChange(change);
  const style = change.conflict ? 'yellow' : change.local ? 'green' : 'cyan';
  return `  ${output.paint(style, words.padEnd(28))} ${printable(change.path)}`;
}

/** Which theme, as the JSON documents give it. */
export function themeJson({ shop, theme }: ThemeTarget) {
  const { id, title, production, preview } = theme;
  return { shop, theme: { id, title, production, preview } };
}

/** `"Spring (development)" of Northwind`. */
export function themeName({ shop, theme }: ThemeTarget): string {
  // Both are the server's word, printed in a terminal.
  return `"${printable(theme.title)}" of ${printable(shop.name)}`;
}
