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
    parsed = parseArgs({ args: argv, options: { ...options, ...HELP }, strict: true, allowPositionals }) as Parsed<
      O,
      P
    >;
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
