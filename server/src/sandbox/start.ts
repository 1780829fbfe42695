/**
 * `startSandbox()`: a reference server of its own for a test suite (or one test file): on a free port of
 * loopback, over seeded JSON data in a new temporary directory, with the control API on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../create-server.js';
import type { DemoOptions, ServerCredentials } from '../demo-credentials.js';
import { connectSandbox, type SandboxClient, type SandboxConnection } from './client.js';

/** Options of {@link startSandbox}. Every field is optional. */
export interface SandboxOptions {
  /** Products to seed. Default 300. */
  products?: number;
  /** Fixed demo credentials (default: random ones, in `credentials`). */
  demo?: DemoOptions;
  /** Lifetime of access tokens, in seconds. Default 3600. */
  tokenTtl?: number;
  /** Redirect URIs the demo app accepts besides its own, e.g. the app under test's callback. */
  redirectUris?: readonly string[];
}

/** A running sandbox. */
export interface RunningSandbox {
  /** Its origin, e.g. `http://127.0.0.1:53124`; the token endpoint is `{origin}/oauth/token`. */
  origin: string;
  /** The API root, `{origin}/v1`. */
  baseUrl: string;
  /** The demo app and user, password included. */
  credentials: ServerCredentials;
  /** Where its control API is and its token: what another process passes to `connectSandbox`. */
  connection: SandboxConnection;
  /** Its control API. */
  control: SandboxClient;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

/** Starts a sandbox; resolves once it answers. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'storefront-sandbox-'));
  try {
    const server = await createServer({
      port: 0,
      data: join(dir, 'db.json'),
      control: true,
      explorer: false,
      ...options,
    });
    const connection = server.control!;
    let stopping: Promise<void> | undefined;
    return {
      origin: server.origin,
      baseUrl: server.baseUrl,
      credentials: server.credentials!,
      connection,
      control: connectSandbox(connection),
      stop() {
        stopping ??= server.close().finally(() => rm(dir, { recursive: true, force: true }));
        return stopping;
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
