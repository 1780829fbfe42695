/**
 * The arguments of a `storefront-server` subcommand (`migrate`, `trigger`, `listen`), read the same way by each:
 * strict, `--help` prints the usage, and a wrong argument is said with the usage and exit code 2.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean' } } as const;

/**
 * Flags of the commands that write a data set this server serves (`storefront-server` itself, `import`): the
 * origin its links name, and the demo app's secret and demo user's password (else `STOREFRONT_DEMO_…` variables).
 */
export const DATA_SET_OPTIONS = {
  'public-url': { type: 'string' },
  'demo-client-secret': { type: 'string' },
  'demo-password': { type: 'string' },
} as const;

/** What `parseArgs` gives for `options` (and `--help`), positionals allowed or not. */
type Parsed<O extends ParseArgsOptionsConfig, P extends boolean> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O & typeof HELP; strict: true; allowPositionals: P }>
>;

/**
 * `argv` with a negative number after a string flag joined to it (`--products -5` → `--products=-5`): parseArgs
 * would take `-5` for a flag and refuse `--products` as ambiguous, with the whole usage, where the command's own
 * check says in one line which numbers it takes. No command has a short flag that is a digit.
 */
function negativeValuesJoined(argv: string[], options: ParseArgsOptionsConfig): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]?.startsWith('--') ? argv[i]!.slice(2) : undefined;
    const next = argv[i + 1];
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`--${name}=${next}`);
      i++;
    } else joined.push(argv[i]!);
  }
  return joined;
}

/**
 * `argv` read against `options`; a number when the command is done already: `0` after printing `usage` for
 * `--help`, `2` after saying what is wrong.
 */
export function readCommandArgs<const O extends ParseArgsOptionsConfig, P extends boolean = false>(
  command: string,
  usage: string,
  argv: string[],
  options: O,
  allowPositionals = false as P,
): Parsed<O, P> | number {
  let parsed: Parsed<O, P>;
  try {
    parsed = parseArgs({
      args: negativeValuesJoined(argv, options),
      options: { ...options, ...HELP },
      strict: true,
      allowPositionals,
    }) as Parsed<O, P>;
  } catch (error) {
    console.error(`storefront-server ${command}: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return 0;
  }
  return parsed;
}
