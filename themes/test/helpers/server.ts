/**
 * A reference server on a free port for one test file, whose demo app registers the loopback redirect the
 * CLI's browser login uses, with its request log kept so that tests wait on what the server saw and count it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientCredentials, createClient, type Shop, type Theme } from '@storefront-platform/sdk';
import { createServer, type ServerOptions, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll } from 'vitest';
import { type ManualClock, shiftedClock } from '../../../test/support/manual-clock.js';
import { type CliOptions, type CliRun, runCli } from './cli.js';

export const DEMO = { clientId: 'themes-test-app', clientSecret: 'themes test secret', password: 'demo password' };

export interface ThemesServer {
  server: StorefrontServer;
  clock: ManualClock;
  /** Every request line the server logged (`PUT /v1/themes/4/templates/9 200 3.1ms`), in order. */
  requests: string[];
  /** The request lines of writes to the API (PUT, POST, DELETE under `/v1/`) logged from index `from` on. */
  writesSince(from: number): string[];
  /** Resolves once the server logs a request matching `pattern` (among those after `from`); rejects after `timeout` ms. */
  waitForRequest(pattern: RegExp, from?: number, timeout?: number): Promise<string>;
  /** A temporary folder, removed after the file's tests. */
  tempDir(): Promise<string>;
  /** The bin, with a fresh configuration folder unless `config` is given. */
  cli(args: string[], options?: Partial<CliOptions>): Promise<CliRun>;
  /** A configuration folder logged in with the client credentials grant. */
  loggedIn(): Promise<string>;
  /**
   * A logged-in configuration and a fresh folder of northwind's theme: the development theme (`dev`) or the
   * production one (`pull`).
   */
  checkedOut(command: 'dev' | 'pull'): Promise<{ config: string; dir: string }>;
  /** The demo user's shop `northwind` and a theme of it, read through the SDK. */
  theme(development?: boolean): Promise<{ shop: Shop; theme: Theme }>;
}

/** The loopback redirect the CLI's browser login uses, registered as RFC 8252 §7.3 has it: any port. */
export const REDIRECT_URIS = ['http://127.0.0.1/callback'];

/** The variables with which `login --client-credentials` finds the server and the app. */
export const appEnv = (server: StorefrontServer) => ({
  STOREFRONT_URL: server.origin,
  STOREFRONT_CLIENT_ID: DEMO.clientId,
  STOREFRONT_CLIENT_SECRET: DEMO.clientSecret,
});

/** Options of {@link useThemesServer}; `clock` defaults to real time, moved on by `advance`. */
export type ThemesServerOptions = Pick<ServerOptions, 'tokenTtl'> & { clock?: ManualClock };

export function useThemesServer(options: ThemesServerOptions = {}): () => ThemesServer {
  let state: ThemesServer | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    const clock = options.clock ?? shiftedClock();
    const requests: string[] = [];
    const waiters = new Set<() => void>();
    const server = await createServer({
      port: 0,
      products: 5,
      clock,
      demo: { ...DEMO, redirectUris: REDIRECT_URIS },
      ...options,
      log: (line) => {
        requests.push(line);
        for (const waiter of waiters) waiter();
      },
    });
    const tempDir = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'storefront-themes-'));
      dirs.push(dir);
      return dir;
    };
    const env = appEnv(server);
    const cli = async (args: string[], options: Partial<CliOptions> = {}) =>
      runCli(args, { ...options, config: options.config ?? (await tempDir()) });
    const loggedIn = async () => {
      const config = await tempDir();
      const login = await cli(['login', '--client-credentials'], { config, env });
      if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
      return config;
    };
    const sdk = createClient({
      baseUrl: server.baseUrl,
      auth: clientCredentials({ authUrl: server.origin, ...DEMO, scope: 'admin' }),
      retry: false,
    });
    state = {
      server,
      clock,
      requests,
      tempDir,
      cli,
      writesSince: (from) => requests.slice(from).filter((line) => /^(PUT|POST|DELETE) \/v1\//.test(line)),
      waitForRequest(pattern, from = 0, timeout = 15_000) {
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            waiters.delete(check);
            reject(
              new Error(`the server saw no request matching ${pattern}; since:\n${requests.slice(from).join('\n')}`),
            );
          }, timeout);
          const check = () => {
            const line = requests.slice(from).find((request) => pattern.test(request));
            if (!line) return;
            waiters.delete(check);
            clearTimeout(timer);
            resolve(line);
          };
          waiters.add(check);
          check();
        });
      },
      loggedIn,
      async checkedOut(command) {
        const config = await loggedIn();
        const dir = join(await tempDir(), 'theme');
        const run = await cli([command, dir, '--shop', 'northwind', ...(command === 'dev' ? ['--no-serve'] : [])], {
          config,
        });
        if (run.code !== 0) throw new Error(`${command} failed: ${run.stderr}`);
        return { config, dir };
      },
      async theme(development = false) {
        const root = await sdk.root();
        const shop = await root
          .embedded('shops')
          .find((s) => s.properties.subdomain === 'northwind')!
          .follow('self');
        const production = await shop.follow('svc:theme');
        return { shop, theme: development ? await production.follow('svc:dev_theme') : production };
      },
    };
  });
  afterAll(async () => {
    await state?.server.close();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return () => {
    if (!state) throw new Error('useThemesServer: the server is not running (use it inside tests)');
    return state;
  };
}
