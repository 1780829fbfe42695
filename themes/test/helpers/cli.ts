/**
 * The real bin, `storefront-themes`, built (dist/cli.js: the tests' global setup, server/test/helpers/build-bin.ts,
 * builds it when the sources changed) and run with plain `node` as a child process, with its own configuration
 * folder (XDG_CONFIG_HOME) and none of the test runner's STOREFRONT_* variables.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** The permission bits of a file or folder the bin keeps (`0o600` for a secret). */
export const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/**
 * Options of the describes whose tests run the bin: each run starts Node (a few tenths of a second), and a test
 * runs several, one after the other; on a machine busy with other work that can take well over vitest's default.
 */
export const BIN_TESTS = { timeout: 60_000 };

export interface CliOptions {
  /** XDG_CONFIG_HOME of the run: where the login is kept. */
  config: string;
  cwd?: string;
  /** Variables of the run on top of the test runner's; `undefined` removes one (e.g. `NO_COLOR`, set by default). */
  env?: Record<string, string | undefined>;
  /** Written to standard input, which is then closed (answers to prompts). */
  input?: string;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running bin: its output so far, a wait on its output, its exit. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves with the match once `stream` matches `pattern`; rejects with the output so far if the process exits
   * first or nothing matches within `timeout` ms (a failing test then says where it stood).
   */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', timeout?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

/** The command line that runs the bin with `args`: Node, then its arguments. */
export function binCommand(args: readonly string[]): [string, ...string[]] {
  return [process.execPath, CLI, ...args];
}

/** The environment of a run: the runner's without STOREFRONT_*, no colour unless `options.env` says otherwise. */
export function environment(options: CliOptions): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STOREFRONT_')));
  return { ...env, XDG_CONFIG_HOME: options.config, NO_COLOR: '1', ...options.env };
}

export function startCli(args: string[], options: CliOptions): CliProcess {
  const [node, ...argv] = binCommand(args);
  const child = spawn(node, argv, {
    cwd: options.cwd,
    env: environment(options),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.end(options.input ?? '');
  const output = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.on('data', (chunk) => {
      output[stream] += chunk;
      for (const listener of listeners) listener();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    exited,
    waitFor: (pattern, stream = 'stdout', timeout = 15_000) =>
      waitForOutput(
        { listeners, exited, read: () => output[stream], dump: () => `${output.stdout}\n${output.stderr}` },
        pattern,
        timeout,
      ),
  };
}

/** Output of a running bin that grows: its listeners (called on each chunk), how to read it, its end. */
export interface GrowingOutput {
  listeners: Set<() => void>;
  exited: Promise<number | null>;
  /** The output searched. */
  read(): string;
  /** All there is to show when the wait fails. */
  dump(): string;
}

/** The first match of `pattern` in the output; rejects, showing the output, when the bin exits first or after `timeout` ms. */
export function waitForOutput(output: GrowingOutput, pattern: RegExp, timeout: number): Promise<RegExpMatchArray> {
  const { listeners, exited } = output;
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      if (!listeners.delete(check)) return;
      clearTimeout(timer);
      reject(new Error(`storefront-themes ${why} before its output matched ${pattern}:\n${output.dump()}`));
    };
    const check = () => {
      const match = output.read().match(pattern);
      if (!match) return;
      listeners.delete(check);
      clearTimeout(timer);
      resolve(match);
    };
    const timer = setTimeout(() => fail(`ran ${timeout} ms`), timeout);
    listeners.add(check);
    check();
    exited.then((code) => fail(`exited (${code})`));
  });
}

/** Runs the bin to its end. */
export async function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  const run = startCli(args, options);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
