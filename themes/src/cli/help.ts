/** The help of the whole tool and of each command, built from the commands' own descriptions. */
import { COMMON_OPTIONS, type Command } from './command.js';

const EXIT_CODES = [
  'Exit codes: 0 ok, 1 failure, 2 usage (a bad flag, argument or folder), 3 conflicts left alone,',
  '4 push or publish cut short (what went is said; run it again to finish).',
].join('\n');

export function mainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    "storefront-themes: the theme developer's command line for the Storefront Platform API.",
    '',
    'Usage: storefront-themes <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Daily loop: storefront-themes dev (a live preview; every save pushed) while you edit, then check, then publish.',
    'Many shops from one folder: environments in storefront-themes.toml, then push/publish/check/pull --env NAME.',
    'Run storefront-themes <command> --help for its options.',
    '',
    EXIT_CODES,
    'Environment: STOREFRONT_URL, STOREFRONT_CLIENT_ID, STOREFRONT_CLIENT_SECRET (read by setup and login);',
    'XDG_CONFIG_HOME (where the login is kept: $XDG_CONFIG_HOME/storefront-themes); NO_COLOR, FORCE_COLOR.',
    '',
  ].join('\n');
}

export function commandHelp(command: Command): string {
  const options = { ...command.options, ...COMMON_OPTIONS };
  const flags = Object.entries(options).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '';
    const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : '';
    return [`${short}--${name}${value}`, spec.description] as const;
  });
  const width = Math.max(...flags.map(([flag]) => flag.length)) + 2;
  return [
    `Usage: storefront-themes ${command.name}${command.args ? ` ${command.args}` : ''} [options]`,
    '',
    command.description,
    '',
    'Options:',
    ...flags.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}
