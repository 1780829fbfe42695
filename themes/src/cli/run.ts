/**
 * The command line: finds the command, parses its options (node:util's parseArgs, strict: an unknown flag is a
 * usage error), runs it, and turns whatever it throws into one line on standard error and an exit code.
 */
import { parseArgs } from 'node:util';
import { COMMANDS } from '../commands/index.js';
import { configDir, loginStore } from '../config/store.js';
import { ExitCode, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { COMMON_OPTIONS, type Command } from './command.js';
import { describeError } from './describe-error.js';
import { commandHelp, mainHelp } from './help.js';
import { Output } from './output.js';
import { Prompter } from './prompt.js';

/** The process around the command line, injectable for tests. */
export interface Io {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/** parseArgs's messages, shortened to what was wrong. */
function usageOf(error: Error & { code?: string }, command: Command): string {
  const flag = /'(-[\w-]+)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${flag} for ${command.name}`;
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return error.message.includes('does not take') ? `option ${flag} takes no value` : `option ${flag} needs a value`;
  }
  return error.message;
}

function parse(command: Command, args: string[]) {
  const options = { ...command.options, ...COMMON_OPTIONS };
  const hint = ` (see storefront-themes ${command.name} --help)`;
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    const extra = parsed.positionals[command.maxArgs];
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"${hint}`);
    return parsed;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${usageOf(error as Error, command)}${hint}`);
  }
}

export async function run(argv: readonly string[], io: Io): Promise<ExitCode> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const wanted = COMMANDS.find((c) => c.name === args[0]);
    stdout.write(wanted ? commandHelp(wanted) : mainHelp(COMMANDS));
    return ExitCode.ok;
  }
  if (name === '--version' || name === '-v') {
    stdout.write(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  const json = args.includes('--json');
  const output = new Output({ json, stdout, stderr, env: io.env });
  const prompter = new Prompter(io.stdin ?? process.stdin, stderr);
  const prefix = command ? `storefront-themes ${command.name}` : 'storefront-themes';
  try {
    if (!command) throw new UsageError(`unknown command "${name}" (see storefront-themes --help)`);
    const { values, positionals } = parse(command, args);
    if (values.help) {
      stdout.write(commandHelp(command));
      return ExitCode.ok;
    }
    const store = loginStore(configDir(io.env), typeof values.login === 'string' ? values.login : undefined);
    return await command.run({ values, positionals, output, prompter, store, env: io.env, cwd: io.cwd });
  } catch (error) {
    const { message, exitCode } = describeError(error);
    stderr.write(`${prefix}: ${message}\n`);
    output.document({ ok: false, error: { message, exitCode } });
    return exitCode;
  } finally {
    prompter.close();
  }
}
