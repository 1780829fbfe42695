import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

/**
 * The built bin, as `npx storefront-server` runs it: the `system` project's global setup (build-bin.ts) builds it
 * when the sources changed.
 */
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** A running `storefront-server` (the built bin, with plain `node`). */
export interface CliProcess {
  child: ChildProcess;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the match once stdout matches `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Starts the CLI with `args`, in `cwd`, with `env` added to a copy of this process's environment; `detached`, in a
 * process group of its own, which `process.kill(-pid, signal)` signals whole, as a terminal's Ctrl-C does.
 */
export function startCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; detached?: boolean } = {},
): CliProcess {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it (npm run build -w sdk -w server)`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  // The test runner's own settings would leak into the child's flags otherwise.
  for (const name of Object.keys(env)) if (name.startsWith('STOREFRONT_') && !options.env?.[name]) delete env[name];
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached === true,
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk) => {
    out += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern);
          if (!match) return;
          listeners.delete(check);
          resolve(match);
        };
        listeners.add(check);
        check();
        exited.then((code) => {
          listeners.delete(check);
          reject(new Error(`storefront-server exited (${code}) before printing ${pattern}:\n${out}\n${err}`));
        });
      });
    },
  };
}

/** `startCli` for the tests of a file: every process it started is killed (if still running) after each test. */
export function useCli(): typeof startCli {
  const running: CliProcess[] = [];
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await cli.exited;
    }
  });
  return (args, options) => {
    const cli = startCli(args, options);
    running.push(cli);
    return cli;
  };
}
