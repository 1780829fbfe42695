/**
 * What `dev` shows over the live preview: the files whose push was refused (by the server, or before sending: a
 * conflict, a template holding merge markers) and the errors `check` finds in the folder. A refusal stays until
 * that file is sent, brought from the server, or found as the theme holds it (deleted before the server ever took
 * it); the check's errors are replaced whole by each new check.
 */
import { printable } from '../printable.js';
import { checkTheme } from './check.js';
import { folderCheckInput } from './check-sources.js';
import type { FileFilter } from './file-filter.js';
import type { WatchEvent } from './watch-machine.js';

/**
 * One problem as the page shows it. `rule` is a `check` rule (`html`, `css`, `reference`…), `refused` for a push
 * the server (or the watch itself) refused, or `conflict` for a file changed on the server too. Texts are escaped
 * for display ({@link printable}): the page still puts them in as text, never as markup.
 */
export interface PageProblem {
  path: string;
  line?: number;
  column?: number;
  rule: string;
  message: string;
}

/** Whether `event` may have changed what `check` finds: a file was sent, brought, or refused. */
export function touchesFolder(event: WatchEvent): boolean {
  return ['pushed', 'pulled', 'failed', 'conflict', 'unchanged', 'ignored', 'ready'].includes(event.type);
}

/** `problem` as one line, as the page shows it: `file:line:column message (rule)`. */
export function problemLine({ path, line, column, rule, message }: PageProblem): string {
  const place = line === undefined ? path : `${path}:${line}${column === undefined ? '' : `:${column}`}`;
  return `${place} ${message} (${rule})`;
}

/** The check's errors in the folder, as the page shows them (warnings stay in the terminal's `check`). */
export async function folderErrors(dir: string, filter: FileFilter): Promise<PageProblem[]> {
  const problems = checkTheme(await folderCheckInput(dir, filter));
  return problems
    .filter((problem) => problem.severity === 'error')
    .map(({ path, line, column, rule, message }) => ({
      path: printable(path),
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
      rule,
      message: printable(message, 500),
    }));
}

/** The problems of a `dev` session: refusals, from the watch's events, and the last check's errors. */
export class DevProblems {
  readonly #refused = new Map<string, PageProblem>();
  #checked: readonly PageProblem[] = [];
  readonly #describe: (error: unknown) => string;

  /** `describe` words a refusal's error as the terminal does. Default: its message. */
  constructor(
    describe: (error: unknown) => string = (error) => (error instanceof Error ? error.message : String(error)),
  ) {
    this.#describe = describe;
  }

  /** Takes a watch event in; whether the refusals changed. */
  seen(event: WatchEvent): boolean {
    if (event.type === 'failed' && !event.kept) {
      return this.#refuse(event.path, 'refused', this.#describe(event.error));
    }
    if (event.type === 'conflict') return this.#refuse(event.file.path, 'conflict', event.file.message ?? '');
    if (event.type === 'pushed' || event.type === 'pulled') return this.#refused.delete(event.file.path);
    if (event.type === 'unchanged' || event.type === 'ignored') return this.#refused.delete(event.path);
    return false;
  }

  /** The errors of the check just run, in place of the last one's; whether they differ from the last one's. */
  checked(problems: readonly PageProblem[]): boolean {
    const changed = JSON.stringify(problems) !== JSON.stringify(this.#checked);
    this.#checked = problems;
    return changed;
  }

  /** Every problem: refusals first (what the shop does not have), then the check's. */
  get list(): PageProblem[] {
    return [...[...this.#refused.values()].sort((a, b) => (a.path < b.path ? -1 : 1)), ...this.#checked];
  }

  #refuse(path: string, rule: string, message: string): boolean {
    this.#refused.set(path, { path: printable(path), rule, message: printable(message, 500) });
    return true;
  }
}
