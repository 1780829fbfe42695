/**
 * One reference server per test file, on a free port over the demo data, reached over real HTTP. The demo
 * user (who administers shops 1 and 2) gets admin and public tokens through the client credentials grant;
 * the owner of shop 3 gets an admin token through the password grant.
 */
import {
  createServer,
  type Dataset,
  type ServerOptions,
  type StorefrontServer,
  seed,
} from '@storefront-platform/server';
import { afterAll, beforeAll } from 'vitest';
import { hashPassword } from '../../src/oauth/secrets.js';
import { clientToken, grantedToken } from '../helpers/test-server.js';

/** Password given to the owner of shop 3, who cannot log in with the seed's data. */
const OTHER_PASSWORD = 'other-owner-password';

/** A JSON document as tests read it: loosely, member by member. */
// biome-ignore lint/suspicious/noExplicitAny: tests walk response documents whose shape they assert
export type Doc = Record<string, any>;

export interface ThemeServer {
  server: StorefrontServer;
  /** `{base_url}`. */
  base: string;
  /** The demo user's admin token (administers shops 1 and 2). */
  admin: string;
  /** The demo user's public token. */
  publicToken: string;
  /** An admin token of the owner of shop 3. */
  otherAdmin: string;
  /** Sends a request with `token` (default: the demo admin) as bearer; `json` becomes a JSON body. */
  call(url: string, init?: CallInit): Promise<Response>;
  /** `call`, then the JSON body (asserting the status when given). */
  json<T = Doc>(url: string, init?: CallInit & { status?: number }): Promise<T>;
}

export interface CallInit extends RequestInit {
  token?: string | null;
  json?: unknown;
}

/** Demo data in which the owner of shop 3 can log in. */
export function demoData(): Dataset {
  const { dataset } = seed({ products: 30, orders: 6 });
  const owner = dataset.shops.find((s) => s.id === '3')!.owner_id;
  dataset.users = dataset.users.map((u) =>
    u.id === owner ? { ...u, password_hash: hashPassword(OTHER_PASSWORD) } : u,
  );
  return dataset;
}

/** Starts a server (demo data in memory unless `options.data` says otherwise) and gets its tokens. */
export async function startThemeServer(options: ServerOptions = {}): Promise<ThemeServer> {
  const server = await createServer({ port: 0, data: demoData(), ...options });
  const otherLogin = server.store.all('users').find((u) => u.id === server.store.get('shops', '3')!.owner_id)!.login;
  const [admin, publicToken, otherAdmin] = await Promise.all([
    clientToken(server, 'admin'),
    clientToken(server, 'public'),
    grantedToken(server, { grant_type: 'password', scope: 'admin', username: otherLogin, password: OTHER_PASSWORD }),
  ]);
  const call = (url: string, init: CallInit = {}) => {
    const { token: bearer = admin, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (bearer) headers.set('authorization', `Bearer ${bearer}`);
    if (json !== undefined) headers.set('content-type', 'application/json');
    const target = url.startsWith('http') ? url : `${server.baseUrl}${url}`;
    return fetch(target, { ...rest, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
  };
  const json = async <T>(url: string, init: CallInit & { status?: number } = {}): Promise<T> => {
    const { status, ...rest } = init;
    const response = await call(url, rest);
    const text = await response.text();
    if (status !== undefined && response.status !== status) {
      throw new Error(`${rest.method ?? 'GET'} ${url}: expected ${status}, got ${response.status}: ${text}`);
    }
    return JSON.parse(text) as T;
  };
  return { server, base: server.baseUrl, admin, publicToken, otherAdmin, call, json };
}

/**
 * A theme server for the current test file (or `describe`): started before its tests, closed after them. The
 * returned object reads through to the running server, so it may be held from the start; hooks registered
 * after this call run once the server is up.
 */
export function useThemeServer(options: ServerOptions = {}): ThemeServer {
  let started: ThemeServer | undefined;
  beforeAll(async () => {
    started = await startThemeServer(options);
  });
  afterAll(async () => {
    await started?.server.close();
  });
  const current = (): ThemeServer => {
    if (!started) throw new Error('useThemeServer: the server is not running (use it inside tests and hooks)');
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get base() {
      return current().base;
    },
    get admin() {
      return current().admin;
    },
    get publicToken() {
      return current().publicToken;
    },
    get otherAdmin() {
      return current().otherAdmin;
    },
    call: (url, init) => current().call(url, init),
    json: (url, init) => current().json(url, init),
  };
}
