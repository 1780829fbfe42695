/**
 * The authorization code grant for a command line (RFC 8252): the browser signs the user in on the platform's
 * page and comes back to a one-shot HTTP server of ours on a loopback address and a free port, with PKCE so that
 * a code caught on the way is useless. The platform accepts any port for an app that registered
 * `http://127.0.0.1/callback` (RFC 8252 §7.3).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizeUrl, exchangeCode, type TokenInfo } from '@storefront-platform/sdk';
import type { AppCredentials } from '../config/store.js';
import { CliError } from '../errors.js';
import { endpointsOf } from './connection.js';

/** The path of the redirect URI; the app registers `http://127.0.0.1/callback`. */
const CALLBACK_PATH = '/callback';

/** Options of {@link signInWithBrowser}. */
export interface BrowserSignIn {
  /** Shows or opens the authorization page; it is also printed, in case no browser opens. */
  visit(url: string): void | Promise<void>;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** How long to wait for the browser, ms. Default 5 minutes. */
  timeout?: number;
  scope?: string;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:3em">` +
  `<h1>${title}</h1><p>${text}</p></body>`;

/** Answers the browser; resolves once the page has left, so that closing the server does not cut it off. */
function reply(response: ServerResponse, status: number, html: string): Promise<void> {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  return new Promise((resolve) => response.end(html, resolve));
}

/** Signs the user in through the browser; resolves with the user's token. */
export async function signInWithBrowser(app: AppCredentials, options: BrowserSignIn): Promise<TokenInfo> {
  const { authUrl } = endpointsOf(app);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`;
  try {
    const request = await authorizeUrl({
      authUrl,
      clientId: app.clientId,
      redirectUri,
      scope: options.scope ?? 'admin',
    });
    const token = new Promise<TokenInfo>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new CliError('no answer from the browser in time: run storefront-themes login again')),
        options.timeout ?? 300_000,
      );
      server.on('request', (incoming: IncomingMessage, response: ServerResponse) => {
        const url = new URL(incoming.url ?? '/', redirectUri);
        // A browser also asks for /favicon.ico and the like.
        if (url.pathname !== CALLBACK_PATH) return void reply(response, 404, page('Not found', 'Nothing here.'));
        exchangeCode({
          authUrl,
          clientId: app.clientId,
          clientSecret: app.clientSecret,
          redirectUri,
          callbackUrl: url.href,
          state: request.state,
          codeVerifier: request.codeVerifier!,
        }).then(
          async (info) => {
            clearTimeout(timer);
            await reply(response, 200, page('Signed in', 'storefront-themes is signed in. You can close this tab.'));
            resolve(info);
          },
          async (error: Error) => {
            clearTimeout(timer);
            await reply(response, 400, page('Not signed in', 'storefront-themes could not sign in: see the terminal.'));
            reject(error);
          },
        );
      });
    });
    await options.visit(request.url);
    return await token;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
