/**
 * Serves the explorer at `{origin}/explorer/`: the page for every path below it (the path after `/explorer`
 * is the API resource shown, so that reload and shared links work), its script and its stylesheet. Answers in
 * the core's response form so that the Express shell compresses and logs it like everything else.
 */
import { randomBytes } from 'node:crypto';
import type { CoreRequest, CoreResponse } from '../core/types.js';
import { isNotModified } from '../http/conditional.js';
import { documentEntity, type Entity } from '../http/entity.js';
import { escapeHtml } from '../http/html.js';
import type { ExplorerFiles } from './bundle.js';
import { EXPLORER_PATH } from './client.js';
import { explorerFiles } from './files.js';

/** What the page is told: where the API and the authorization service are, and its client id. */
export interface ExplorerConfig {
  baseUrl: string;
  authUrl: string;
  clientId: string;
}

/** The explorer's answer to a request under `/explorer`; `undefined` for any other path. */
export type ExplorerHandler = (request: CoreRequest) => Promise<CoreResponse> | undefined;

interface Asset {
  entity: Entity;
  headers: Record<string, string>;
}

const TYPES = { html: 'text/html', js: 'text/javascript', css: 'text/css' } as const;

/**
 * The page's API origin is allowed explicitly: the page may be opened on `localhost` while the API's links
 * say `127.0.0.1`. Scripts run by this response's nonce only, never by origin: the same origin serves the themes'
 * files and previews, whose `.js` must not run in the page (and data shown by it never can). A nonce rather than a
 * path (`{origin}/explorer/`): it needs no knowledge of the origin the browser used (a proxy may change `Host`),
 * and the chunk the script imports later is let in by the nonce of the script that imports it. Styles likewise,
 * but for the explorer's stylesheet, and for the `<style>` elements the code editor (CodeMirror) adds, which carry
 * this response's nonce.
 */
function pageHeaders(apiOrigin: string, nonce: string): Record<string, string> {
  return {
    'content-security-policy':
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'; ` +
      `img-src 'self' ${apiOrigin} data:; connect-src 'self' ${apiOrigin}; form-action 'self'; base-uri 'none'; ` +
      `frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

/** The page's placeholder for the nonce of its script and styles, filled in per response. */
const NONCE = '%NONCE%';

/**
 * The page, with a nonce of its own: a nonce must not be guessable, so no two responses share one, and the page is
 * not cached (it is a kilobyte; its script and stylesheet, which are, carry the weight).
 */
function pageAnswer(html: string, apiOrigin: string): CoreResponse {
  const nonce = randomBytes(18).toString('base64');
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...pageHeaders(apiOrigin, nonce),
  };
  return { status: 200, headers, body: html.replaceAll(NONCE, nonce) };
}

function asset(type: keyof typeof TYPES, body: string, headers: Record<string, string> = {}): Asset {
  const entity = documentEntity(body, `${TYPES[type]}; charset=utf-8`, Date.now());
  return {
    entity,
    headers: {
      'content-type': entity.contentType,
      // Revalidated on every use: a new server version must not meet an old script.
      'cache-control': 'no-cache',
      etag: entity.etag,
      'x-content-type-options': 'nosniff',
      ...headers,
    },
  };
}

interface Served {
  /** The page's HTML with the config in, the nonce still a placeholder. */
  html: string;
  /** Script, stylesheet and chunks by path below `/explorer`. */
  files: Record<string, Asset>;
}

function assets(files: ExplorerFiles, config: ExplorerConfig): Served {
  const values: Record<string, string> = {
    '%BASE_URL%': config.baseUrl,
    '%AUTH_URL%': config.authUrl,
    '%CLIENT_ID%': config.clientId,
  };
  const html = (files['index.html'] ?? '').replace(/%[A-Z_]+%/g, (name) => escapeHtml(values[name] ?? name));
  const served: Record<string, Asset> = {};
  // The script, the stylesheet, and the chunks the script imports when it needs them (the code editor).
  for (const [name, text] of Object.entries(files)) {
    if (name.endsWith('.js')) served[`/${name}`] = asset('js', text);
    else if (name.endsWith('.css')) served[`/${name}`] = asset('css', text);
  }
  return { html, files: served };
}

function answer(request: CoreRequest, { entity, headers }: Asset): CoreResponse {
  if (isNotModified(request.headers, entity)) return { status: 304, headers };
  // A HEAD gets the body too: the shell sends its headers (length, encoding) and leaves the body out.
  return { status: 200, headers, body: entity.body };
}

/** The explorer's handler for a server whose page is configured with `config`. */
export function createExplorerHandler(config: ExplorerConfig): ExplorerHandler {
  let served: Promise<Served> | undefined;
  const apiOrigin = new URL(config.baseUrl).origin;
  return (request) => {
    const path = request.url.pathname;
    if (path !== EXPLORER_PATH && !path.startsWith(`${EXPLORER_PATH}/`)) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const headers = { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' };
      return Promise.resolve({ status: 405, headers, body: 'The explorer answers GET and HEAD only.\n' });
    }
    served ??= explorerFiles().then((files) => assets(files, config));
    served.catch(() => {
      served = undefined;
    });
    return served.then(({ html, files }) => {
      const file = files[path.slice(EXPLORER_PATH.length)];
      return file ? answer(request, file) : pageAnswer(html, apiOrigin);
    });
  };
}
