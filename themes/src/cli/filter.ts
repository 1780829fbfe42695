/** The filter of a command line: the folder's `.storefrontignore` narrowed by `--only` and `--ignore`. */
import { type FileFilter, folderFilter, globsOf } from '../theme/file-filter.js';
import type { CommandContext } from './command.js';

export function filterOf({ values }: Pick<CommandContext, 'values'>, dir: string): Promise<FileFilter> {
  return folderFilter(dir, { only: globsOf(values.only), ignore: globsOf(values.ignore) });
}
