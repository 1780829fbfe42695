/** What a command is: its name, its help and its options, and the function that runs it. */
import type { ConfigStore } from '../config/store.js';
import type { ExitCode } from '../errors.js';
import type { Manifest } from '../theme/manifest.js';
import type { FolderRead } from '../theme/workspace.js';
import type { Interruption } from './interrupt.js';
import type { Output } from './output.js';
import type { Prompter } from './prompt.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in the help, for string options. */
  value?: string;
  /** Whether the option may be given several times (its value is then a list). */
  multiple?: boolean;
  description: string;
}

/** What a command runs with. */
export interface CommandContext {
  /** The options given, by long name. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  output: Output;
  prompter: Prompter;
  store: ConfigStore;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Set when the command runs for one environment of the folder's environments file (see environments.ts). */
  environment?: EnvironmentRun;
  /**
   * Ctrl-C, listened to once for the whole command (its environments share it), by a command that writes several
   * files and reports what it did when stopped (see interrupt.ts).
   */
  interruption?: Interruption;
}

/** The environment a command runs for: its name and where its manifest lies in the folder. */
export interface EnvironmentRun {
  name: string;
  manifestFile: string;
  /**
   * The folder's files, read once for every environment of the run (a push to 200 shops reads each file once, not
   * 200 times, and holds one copy of the folder's bytes, not one per environment at work).
   */
  folder?: () => Promise<FolderRead>;
  /**
   * The manifest a push starts from when the environment has none in the folder yet (its first push): no file,
   * held here, so that a dry run writes nothing; the push writes it once it has compared or sent.
   */
  start?: Manifest;
}

export interface Command {
  name: string;
  /** One line, for the list of commands. */
  summary: string;
  /** The arguments after the name, e.g. `[dir]`. */
  args: string;
  /** Paragraphs for the command's own help. */
  description: string;
  options: Record<string, OptionSpec>;
  /** How many positional arguments it takes at most. */
  maxArgs: number;
  run(context: CommandContext): Promise<ExitCode>;
}

/** Options every command takes. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print the result as JSON on standard output (watch: one object per line)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

/** `--shop`, for the commands that pick a theme. */
export const SHOP_OPTION: OptionSpec = {
  type: 'string',
  value: 'SHOP',
  description: "subdomain or id of the shop (default: the folder's, else your only shop)",
};

/** The folder argument of a command: the one given, else the working directory. */
export function folderOf({ positionals, cwd }: Pick<CommandContext, 'positionals' | 'cwd'>): string {
  return positionals[0] ?? cwd;
}

/** `--only` and `--ignore`, for the commands that move files (see theme/file-filter.ts). */
export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  only: {
    type: 'string',
    value: 'GLOB',
    multiple: true,
    description: 'only files matching the glob (e.g. "*.css", "assets/**"; repeat it or separate with commas)',
  },
  ignore: {
    type: 'string',
    value: 'GLOB',
    multiple: true,
    description: 'leave files matching the glob alone, beside those .storefrontignore lists (repeatable)',
  },
};

/** `--login`, for the commands that keep a login: a named one, which an environment refers to. */
export const LOGIN_OPTION: OptionSpec = {
  type: 'string',
  value: 'NAME',
  description: 'keep this login under NAME, beside others (environments name it: login = "NAME"); default: unnamed',
};

/** `--env` and `--concurrency`, for the commands that run for the environments of storefront-themes.toml. */
export const ENV_OPTIONS: Record<string, OptionSpec> = {
  env: {
    type: 'string',
    value: 'NAME',
    multiple: true,
    description:
      "an environment of the folder's storefront-themes.toml, or a glob of their names ('shop-*'); repeatable (default: the file's default)",
  },
  concurrency: {
    type: 'string',
    value: 'N',
    description: 'how many environments run at once (default 4)',
  },
};
