/**
 * A sandbox served by `storefront-server --workers N` in a child process: the real command line as a team runs it,
 * so that a test meets what several processes on one database do (each connection served by whichever worker the
 * kernel hands it). It listens on a free port (`--port 0`); where, its control API and its demo credentials are
 * read from its banner, and the primary's "N workers listening" line says that every worker serves.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ServerControl } from '../create-server.js';
import type { DemoOptions, ServerCredentials } from '../demo-credentials.js';
import { DEMO_REDIRECT_URIS } from '../seed/seed.js';
import { newControlToken } from './control-token.js';
import { LIFELINE } from './lifeline.js';

/** What {@link startFleet} starts. */
export interface FleetOptions {
  /** The database's URL with its `?schema=`; the schema is seeded afresh (`--reset`). */
  store: string;
  workers: number;
  products?: number;
  demo?: DemoOptions;
  tokenTtl?: number;
  redirectUris?: readonly string[];
  /**
   * The schema of `store` is the sandbox's own: the fleet drops it when it stops because this process is gone
   * (see `lifeline.ts`), since `stop()` will not.
   */
  ownSchema?: boolean;
}

/** A running fleet. */
export interface Fleet {
  origin: string;
  baseUrl: string;
  credentials: ServerCredentials;
  control: ServerControl;
  /** SIGTERM to the primary, which stops its workers (each finishes its requests); resolves once it exited. */
  stop(): Promise<void>;
}

/** Long enough for a cold start on a busy 2-core machine from the sources (tsx), far from a hung one. */
const START_TIMEOUT_MS = 60_000;
/** What is kept of the child's output for an error message. */
const TAIL = 8_000;

/**
 * The command that runs `storefront-server`: the built bin beside this module once bundled into `dist/`, else
 * (this repository's sources, under vitest or tsx) `src/cli.ts` through tsx from the repository's root, whose
 * tsconfig maps the workspace packages to their sources, as `npm start` runs it.
 */
function command(): { args: string[]; cwd: string | undefined } {
  const built = new URL('./cli.js', import.meta.url);
  if (existsSync(built)) return { args: [fileURLToPath(built)], cwd: undefined };
  const tsx = createRequire(import.meta.url).resolve('tsx');
  return {
    args: ['--import', tsx, fileURLToPath(new URL('../cli.ts', import.meta.url))],
    cwd: fileURLToPath(new URL('../../../', import.meta.url)),
  };
}

/** The child's environment: this process's, less the `STOREFRONT_*` settings that would add to its flags. */
function environment(demo: DemoOptions, token: string, ownSchema: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('STOREFRONT_')) env[name] = value;
  env.STOREFRONT_CONTROL_TOKEN = token;
  env[LIFELINE] = ownSchema ? 'stop,drop-schema' : 'stop';
  // In the environment rather than the arguments, which every user of the machine can list (`ps`).
  const secrets = {
    STOREFRONT_DEMO_CLIENT_ID: demo.clientId,
    STOREFRONT_DEMO_CLIENT_SECRET: demo.clientSecret,
    STOREFRONT_DEMO_LOGIN: demo.login,
    STOREFRONT_DEMO_PASSWORD: demo.password,
  };
  for (const [name, value] of Object.entries(secrets)) if (value !== undefined) env[name] = value;
  return env;
}

function argumentsOf(options: FleetOptions): string[] {
  return [
    ...['--store', options.store, '--workers', String(options.workers), '--port', '0', '--reset', '--control'],
    ...(options.products === undefined ? [] : ['--products', String(options.products)]),
    ...(options.tokenTtl === undefined ? [] : ['--token-ttl', String(options.tokenTtl)]),
    ...(options.redirectUris ?? []).flatMap((uri) => ['--redirect-uri', uri]),
  ];
}

/** The banner's value on the line `label:`, e.g. `  Client id:     demo-…`. */
function bannerValue(banner: string, label: string): string {
  const value = banner.match(new RegExp(`^ *${label}: +(.*)$`, 'm'))?.[1];
  if (value === undefined) throw new Error(`storefront-server printed no "${label}" line:\n${banner}`);
  return value;
}

/** Starts the fleet; resolves once every worker serves. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const demo = options.demo ?? {};
  if (demo.redirectUris !== undefined) {
    throw new TypeError(
      'demo.redirectUris cannot be given to a sandbox of several workers (storefront-server has no flag for it): ' +
        'give redirectUris, which the demo app accepts besides its own',
    );
  }
  const token = newControlToken();
  const { args, cwd } = command();
  // Its stdin, a pipe nothing is written to, ends when this process is gone however it ended (a crash, a signal,
  // SIGKILL), and the fleet then stops (see `lifeline.ts`): no handler of this process's own is needed for that,
  // where an `exit` handler missed every death by a signal.
  const child = spawn(process.execPath, [...args, ...argumentsOf(options)], {
    cwd,
    env: environment(demo, token, options.ownSchema === true),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
  });
  let out = '';
  let err = '';
  /** Everything printed until every worker served. */
  let banner: string | undefined;
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    err = (err + chunk).slice(-TAIL);
  });
  const output = () => `${out.slice(-TAIL)}\n${err}`;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`storefront-server did not serve within ${START_TIMEOUT_MS / 1000} s:\n${output()}`));
      }, START_TIMEOUT_MS);
      const serving = new RegExp(`^storefront-server: ${options.workers} workers listening`, 'm');
      // Read to the end whatever it prints (then its request log, of which a tail is kept), or its writes to a
      // full pipe would block it.
      child.stdout!.on('data', (chunk: string) => {
        out = banner === undefined ? out + chunk : (out + chunk).slice(-TAIL);
        if (banner === undefined && serving.test(out)) {
          banner = out;
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`storefront-server exited (${code}) before it served:\n${output()}`));
      });
    });
  } catch (error) {
    child.kill('SIGTERM');
    await exited;
    throw error;
  }
  const printed = banner!;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`storefront-server exited with ${code} on stop:\n${output()}`);
  };
  try {
    const origin = bannerValue(printed, 'Token URL').replace(/\/oauth\/token$/, '');
    return {
      origin,
      baseUrl: bannerValue(printed, 'Base URL'),
      credentials: {
        clientId: bannerValue(printed, 'Client id'),
        clientSecret: bannerValue(printed, 'Client secret'),
        login: bannerValue(printed, 'Login'),
        password: bannerValue(printed, 'Password'),
        redirectUris: [...DEMO_REDIRECT_URIS],
      },
      control: { url: bannerValue(printed, 'Control API'), token, joined: false },
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
