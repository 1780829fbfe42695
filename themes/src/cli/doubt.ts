/**
 * A development theme that looks incomplete, about to replace production's files (publish) or the folder's
 * (dev). `--yes` answers the usual question, not this one: only `--force` or a person's yes in the terminal goes
 * on; without a terminal the command stops with exit code 2, naming `--force`.
 */
import { UsageError } from '../errors.js';
import type { SourceDoubt } from '../theme/source-check.js';
import type { CommandContext } from './command.js';

/** What `--force` does in publish and dev, beside their own meaning of the flag. */
export const FORCE_INCOMPLETE =
  "use a development theme that looks incomplete (it lacks over a quarter of production's files, at least 10, or the server marks it so)";

/**
 * Whether to go on despite `doubt`: `--force` says yes (with a warning), a person answers `question`; without
 * a terminal (or with --json) it is a usage error saying to pass `--force` to `what`.
 */
export async function acceptDoubt(
  { values, output, prompter }: Pick<CommandContext, 'values' | 'output' | 'prompter'>,
  doubt: SourceDoubt,
  question: string,
  what: string,
): Promise<boolean> {
  const warning = output.paint('yellow', `Warning: ${doubt.message}`);
  if (values.force === true) {
    output.note(`${warning} (going on: --force)`);
    return true;
  }
  if (!prompter.interactive || output.json)
    throw new UsageError(`${doubt.message}: pass --force to ${what} all the same`);
  output.note(warning);
  return prompter.confirm(question, '--force');
}
