/**
 * Which of a theme's files a command deals with: those `.storefrontignore` (gitignore syntax, read by the `ignore`
 * package, which follows git's own rules: negation, anchoring, folder patterns) does not exclude, narrowed by the
 * command line's `--only` globs and widened out by its `--ignore` globs (picomatch). A file left out is left alone
 * on both sides: neither pulled, pushed, deleted, watched nor published, and not reported as a change.
 */
import ignoreModule from 'ignore';
import picomatch from 'picomatch';
import { UsageError } from '../errors.js';
import { readInside, UnsafePathError } from './confined.js';

/** The ignore file of a theme folder, beside the manifest. */
export const IGNORE_FILE = '.storefrontignore';

/** Whether the file at `path` (`/`-separated, relative to the theme folder) is dealt with. */
export type FileFilter = (path: string) => boolean;

/** Every file. */
export const EVERY_FILE: FileFilter = () => true;

/** The globs of a command line. */
export interface FilterGlobs {
  /** Only files matching one of these (e.g. `*.css`, `assets/**`); default: every file. */
  only?: readonly string[];
  /** Not files matching one of these. */
  ignore?: readonly string[];
}

/** A glob list of the command line: `--only "a/*, b.html"` and repeated flags both give several. */
export function globsOf(value: string | boolean | (string | boolean)[] | undefined): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

function matcher(globs: readonly string[], flag: string): (path: string) => boolean {
  const tests = globs.map((glob) => {
    try {
      // `dot`: a theme's names may start with a dot where the folder allows it; `*.css` means any folder's too,
      // as in .gitignore, when the glob has no slash.
      return picomatch(glob, { dot: true, basename: !glob.includes('/') });
    } catch (error) {
      throw new UsageError(`${flag} "${glob}" is not a valid glob: ${(error as Error).message}`);
    }
  });
  return (path) => tests.some((test) => test(path));
}

/** The filter of `globs` alone. */
export function globFilter({ only = [], ignore = [] }: FilterGlobs): FileFilter {
  const [included, excluded] = [matcher(only, '--only'), matcher(ignore, '--ignore')];
  return (path) => (only.length === 0 || included(path)) && !excluded(path);
}

/** The filter of the folder's {@link IGNORE_FILE} (every file when it has none), narrowed by `globs`. */
export async function folderFilter(dir: string, globs: FilterGlobs = {}): Promise<FileFilter> {
  // Missing folder: no rules (the command says what is wrong with it). A link, never followed, is an error: rules
  // silently not applied would send what the developer meant to keep out.
  const bytes = await readInside(dir, IGNORE_FILE).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    const why = error instanceof UnsafePathError ? 'a symbolic link, never followed' : error.message;
    throw new UsageError(`${IGNORE_FILE} cannot be read (${why}): make it a plain file`);
  });
  const byGlobs = globFilter(globs);
  if (!bytes) return byGlobs;
  // A CommonJS package whose typings declare an ES default: under NodeNext the function is that `default`.
  const rules = ignoreModule.default().add(bytes.toString('utf8'));
  return (path) => !rules.ignores(path) && byGlobs(path);
}
