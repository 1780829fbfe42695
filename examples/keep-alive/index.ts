/**
 * A long-running script that outlives its access tokens. It works with a user's token (here: persisted in a
 * file) through the `authorized` strategy, which trades an expiring or rejected token for a new one with the
 * JWT bearer grant, and saves each new token through `onToken`, because the server revokes the old one: a
 * restart must start from the newest.
 *
 *   npm run example -- keep-alive [--token-file FILE] [--interval SECONDS] [--rounds N]
 *
 * Start the server with short-lived tokens to watch it happen: `npm start -- --token-ttl 10`.
 * Stop it with Ctrl-C; run it again and it carries on with the saved token.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { authorized, clientCredentials, createClient, OAuthError, type TokenInfo } from '@storefront-platform/sdk';
import { plural } from '../shared/format.js';
import type { ExampleOptions } from '../shared/options.js';

/** Options of {@link main}. */
export interface KeepAliveOptions extends ExampleOptions {
  /** Where the current token is kept. Default `storefront-data/example-token.json`. */
  tokenFile?: string;
  /** Pause between two rounds of work, in ms. Default 5000. */
  interval?: number;
  /** Rounds of work before stopping. Default: until `signal` aborts. */
  rounds?: number;
}

/** What happened. */
export interface KeepAliveResult {
  rounds: number;
  /** Tokens obtained by the JWT bearer grant during the run. */
  refreshes: number;
}

export const description = 'a long-running script that survives token expiry (JWT bearer grant) and saves its token';

export const DEFAULT_TOKEN_FILE = 'storefront-data/example-token.json';

async function loadToken(path: string): Promise<TokenInfo | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as TokenInfo;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes the token readable by its owner only, and atomically: a crash mid-write must not lose the only token. */
async function saveToken(path: string, token: TokenInfo): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(token, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}

const time = (epochMs: number | undefined) => (epochMs === undefined ? 'unknown' : new Date(epochMs).toISOString());

export async function main(options: KeepAliveOptions): Promise<KeepAliveResult> {
  const log = options.log ?? console.log;
  const tokenFile = options.tokenFile ?? DEFAULT_TOKEN_FILE;
  const { authUrl, clientId, clientSecret } = options;

  let saved = await loadToken(tokenFile);
  if (saved) {
    log(`Resuming with the token saved in ${tokenFile} (expires ${time(saved.expiresAt)})`);
  } else {
    // A real app gets the user's first token from the authorization code or implicit flow (see docs/sdk.md);
    // the client credentials grant stands in for it here, so that the example runs without a browser.
    saved = await new Promise<TokenInfo>((resolve, reject) => {
      const standIn = clientCredentials({ authUrl, clientId, clientSecret, scope: 'admin', onToken: resolve });
      standIn.credentials().catch(reject);
    });
    await saveToken(tokenFile, saved);
    log(`Obtained a first token, saved in ${tokenFile} (expires ${time(saved.expiresAt)})`);
  }

  let refreshes = 0;
  const client = createClient({
    baseUrl: options.baseUrl,
    auth: authorized({
      authUrl,
      clientId,
      clientSecret,
      accessToken: saved.accessToken,
      expiresAt: saved.expiresAt,
      onToken: async (token) => {
        refreshes++;
        await saveToken(tokenFile, token);
        log(`  new token through the JWT bearer grant, saved (expires ${time(token.expiresAt)})`);
      },
    }),
  });

  const rounds = options.rounds ?? Number.POSITIVE_INFINITY;
  const interval = options.interval ?? 5000;
  let done = 0;
  try {
    while (done < rounds && !options.signal?.aborted) {
      const root = await client.root({ signal: options.signal });
      const paid = await root.follow('svc:all_orders', { status: 'paid', per_page: 1 }, { signal: options.signal });
      done++;
      log(`Round ${done} at ${new Date().toISOString()}: ${plural(paid.properties.total_items, 'paid order')}`);
      if (done < rounds) await sleep(interval, undefined, { signal: options.signal });
    }
  } catch (error) {
    if (options.signal?.aborted) {
      // Ctrl-C: a clean stop, the newest token is on disk.
    } else if (error instanceof OAuthError) {
      // The exchange was refused for good (the token was revoked, or the server's data was reset).
      throw new Error(`The saved token can no longer be renewed (${error.error}); delete ${tokenFile} to start over`, {
        cause: error,
      });
    } else throw error;
  }
  log(`Stopped after ${plural(done, 'round')} and ${plural(refreshes, 'token refresh', 'token refreshes')}`);
  return { rounds: done, refreshes };
}

/** The runner's command-line arguments, as options. */
export function fromArgs(args: string[]): Partial<KeepAliveOptions> {
  const { values } = parseArgs({
    args,
    options: { 'token-file': { type: 'string' }, interval: { type: 'string' }, rounds: { type: 'string' } },
  });
  return {
    tokenFile: values['token-file'],
    interval: values.interval === undefined ? undefined : Number(values.interval) * 1000,
    rounds: values.rounds === undefined ? undefined : Number(values.rounds),
  };
}
