import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach } from 'vitest';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
/**
 * The repository's tsconfig, whose paths map `@storefront-platform/sdk` to its sources: tsx looks for one in the working
 * directory, and the tests run the CLI in temporary ones (without it the package's unbuilt `dist/` is imported).
 */
const TSCONFIG = fileURLToPath(new URL('../../../tsconfig.json', import.meta.url));
/** tsx's loader by absolute URL, so that the child finds it whatever its working directory. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A running `storefront-server` (through tsx, from the sources). */
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

/** Starts the CLI with `args`, in `cwd`, with `env` added to a copy of this process's environment. */
export function startCli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG, ...options.env };
  // The test runner's own settings would leak into the child's flags otherwise.
  for (const name of Object.keys(env)) if (name.startsWith('STOREFRONT_') && !options.env?.[name]) delete env[name];
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
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
