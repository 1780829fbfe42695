/**
 * The real bin in a terminal: run under util-linux `script`, which gives it a pseudo-terminal for standard input,
 * output and error, as a person's shell does. What the terminal shows (standard output and error together, with
 * the terminal's `\r\n`) comes back on `script`'s standard output; what is written to its standard input is typed
 * into the terminal, and the end of that input is a Ctrl-D there.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { requirement } from '../../../test/support/requirement.js';
import { binCommand, type CliOptions, environment, waitForOutput } from './cli.js';

/** The options {@link startInTerminal} gives `script` before the command line, util-linux's long ones. */
const SCRIPT_OPTIONS = ['--quiet', '--return', '--flush', '--command'];

/**
 * util-linux `script`, which gives the bin a terminal. Probed by what the tests do with it: run a command with
 * their options and pass its exit code on. BSD's `script` (macOS) takes none of those options and fails the probe,
 * as it would fail the tests; it has no `--version` either, so asking for that tells nothing.
 */
export const TERMINAL = requirement(
  "util-linux's script",
  'Install it: apt-get install bsdutils (Debian), util-linux elsewhere.',
  () =>
    spawnSync('script', [...SCRIPT_OPTIONS, 'exit 7', '/dev/null'], { stdio: 'ignore', timeout: 10_000 }).status === 7,
);

export interface TerminalOptions extends CliOptions {
  /** A file to which the bin's standard output is redirected (`> file`), standard error staying on the terminal. */
  stdoutTo?: string;
}

export interface TerminalProcess {
  child: ChildProcess;
  /** Everything the terminal showed so far, as the bin wrote it (escape sequences included). */
  screen(): string;
  /** The same with the terminal's line ends (`\r\n`, and readline's `\r\r\n`) as `\n`. */
  text(): string;
  /** Types `text` into the terminal. */
  type(text: string): void;
  /** Resolves once the screen matches `pattern`; rejects with the screen so far if the bin exits first or after `timeout` ms. */
  waitFor(pattern: RegExp, timeout?: number): Promise<RegExpMatchArray>;
  /** The bin's exit code (`script -e` passes it on). */
  exited: Promise<number | null>;
}

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Starts the bin in a terminal. Its environment is the usual one of the tests (see `environment`), but without
 * `NO_COLOR` and `FORCE_COLOR` unless `options.env` sets them, and with a `TERM` that has colours.
 */
export function startInTerminal(args: string[], options: TerminalOptions): TerminalProcess {
  const line = binCommand(args).map(quote).join(' ') + (options.stdoutTo ? ` > ${quote(options.stdoutTo)}` : '');
  const env = environment({
    ...options,
    env: { NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color', ...options.env },
  });
  const child = spawn('script', [...SCRIPT_OPTIONS, line, '/dev/null'], {
    cwd: options.cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const listeners = new Set<() => void>();
  const seen = (chunk: string) => {
    screen += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout!.setEncoding('utf8').on('data', seen);
  child.stderr!.setEncoding('utf8').on('data', seen);
  if (options.input !== undefined) child.stdin!.end(options.input);
  // Typing into a terminal that has closed is nothing to report.
  child.stdin!.on('error', () => {});
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  exited.then(() => child.stdin!.destroy());
  const text = () => screen.replaceAll(/\r+\n/g, '\n');
  return {
    child,
    screen: () => screen,
    text,
    type: (input) => child.stdin!.write(input),
    exited,
    waitFor: (pattern, timeout = 15_000) =>
      waitForOutput({ listeners, exited, read: text, dump: () => JSON.stringify(text()) }, pattern, timeout),
  };
}

/** Runs the bin in a terminal to its end (its input, if any, typed at once and then ended). */
export async function runInTerminal(args: string[], options: TerminalOptions) {
  const run = startInTerminal(args, { ...options, input: options.input ?? '' });
  const code = await run.exited;
  return { code, screen: run.screen(), text: run.text() };
}

const ESC = String.fromCharCode(27);

/**
 * What the terminal shows once `screen` is written to it, line by line: text drawn over by a carriage return or a
 * cursor move to a column (`ESC [ n G`) replaced, lines cleared (`ESC [ K`, `ESC [ 2 K`) cleared, colours dropped.
 * Enough of a terminal for what the bin writes: a bar redrawn in place leaves only its last state, or nothing.
 */
export function rendered(screen: string): string {
  return screen
    .split('\n')
    .map((raw) => {
      let line = '';
      let cursor = 0;
      const write = (text: string) => {
        for (const [i, part] of text.split('\r').entries()) {
          if (i > 0) cursor = 0;
          line = line.padEnd(cursor).slice(0, cursor) + part + line.slice(cursor + part.length);
          cursor += part.length;
        }
      };
      const [first, ...sequences] = raw.split(ESC);
      write(first!);
      for (const sequence of sequences) {
        const [control = '', parameter = '', final = ''] = /^\[([\d;]*)([A-Za-z])/.exec(sequence) ?? [];
        if (final === 'G') cursor = Math.max(1, Number(parameter || 1)) - 1;
        else if (final === 'K' && (parameter || '0') === '0') line = line.slice(0, cursor);
        else if (final === 'K' && parameter === '2') line = '';
        write(sequence.slice(control.length));
      }
      return line.trimEnd();
    })
    .join('\n');
}
