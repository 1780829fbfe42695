/**
 * `dev`'s local preview: a small HTTP server on 127.0.0.1 that serves the development theme's preview page, and its
 * files, from the server (fetched afresh on every request: a push must show at the next load), with a few lines of
 * script added to each HTML page. That script listens to this server's events (server-sent events, which any
 * browser reconnects by itself) and, after each file pushed or pulled, swaps the stylesheets of the page when the
 * file was a stylesheet (no reload: the scroll position and the state of the page stay) and reloads the page
 * otherwise. It also shows, over the page, the problems `dev` reports (a push refused, a `check` error: file, line,
 * rule and message), put in as text, never as markup, and removes them once there are none. Each page is sent the
 * problems as they stand when it connects, then every change of them.
 *
 * The preview page keeps the server's Content-Security-Policy (a sandbox with scripts: the theme runs as it does in
 * the shop, at an opaque origin), so the event stream answers that origin (`null`), and no web site's: it carries the
 * file names and problems of the theme.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import type { PageProblem } from './dev-problems.js';

/** Where the page's script listens. */
const EVENTS_PATH = '/__storefront/events';

/** Options of {@link startLivePreview}. */
export interface LivePreviewOptions {
  /** The development theme's preview address (its folder, ending in `/`). */
  preview: string;
  /** Port on 127.0.0.1; 0 for any free one. */
  port: number;
  /** The `fetch` of the requests to the server (tests). Default: the global one. */
  fetch?: typeof fetch;
}

/** A running local preview. */
export interface LivePreview {
  /** Its address, e.g. `http://127.0.0.1:9292/`. */
  url: string;
  /** Pages listening for reloads now. */
  readonly listeners: number;
  /**
   * Tells the pages that `path` (a template's file name, or `assets/…`) changed on the server: call it once the
   * server acknowledged the write, so that the reloaded page has it.
   */
  changed(path: string): void;
  /** Shows `problems` over the pages (none: no overlay), in place of those shown before. */
  problems(problems: readonly PageProblem[]): void;
  close(): Promise<void>;
}

/** The script added to each HTML page, before anything of the theme runs. */
function clientScript(events: string): string {
  return `<script>(() => {
  // storefront-themes dev: live reload. Stylesheets are swapped in place; anything else reloads the page.
  const source = new EventSource(${JSON.stringify(events)});
  source.addEventListener('change', (event) => {
    const { css } = JSON.parse(event.data);
    const links = [...document.querySelectorAll('link[rel~="stylesheet"]')];
    if (!css || links.length === 0) return location.reload();
    for (const link of links) {
      const url = new URL(link.href);
      url.searchParams.set('storefront-reload', String(Date.now()));
      const fresh = link.cloneNode();
      fresh.href = url.href;
      fresh.addEventListener('load', () => link.remove(), { once: true });
      fresh.addEventListener('error', () => link.remove(), { once: true });
      link.after(fresh);
    }
  });
  // The problems, in a shadow root of their own (the theme's styles do not reach it), as text only: file names and
  // messages are not ours.
  let host;
  source.addEventListener('problems', (event) => {
    const { problems } = JSON.parse(event.data);
    if (problems.length === 0) {
      host?.remove();
      host = undefined;
      return;
    }
    if (!host) {
      host = document.createElement('storefront-dev-problems');
      host.attachShadow({ mode: 'open' });
    }
    const box = document.createElement('section');
    box.setAttribute('role', 'alert');
    Object.assign(box.style, {
      position: 'fixed', inset: 'auto 0 0 0', zIndex: '2147483647', maxHeight: '50vh', overflow: 'auto',
      margin: '0', padding: '12px 16px', background: '#1d1f21', color: '#f8f8f2', borderTop: '4px solid #e5534b',
      font: '14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', textAlign: 'left',
    });
    const title = document.createElement('strong');
    title.textContent = 'storefront-themes dev: ' + problems.length + (problems.length === 1 ? ' problem' : ' problems');
    box.append(title);
    const list = document.createElement('ul');
    Object.assign(list.style, { margin: '6px 0 0', padding: '0', listStyle: 'none' });
    for (const { path, line, column, rule, message } of problems) {
      const item = document.createElement('li');
      const place = document.createElement('span');
      place.className = 'place';
      place.style.color = '#e5534b';
      place.textContent = path + (line ? ':' + line + (column ? ':' + column : '') : '');
      const ruleName = document.createElement('span');
      ruleName.className = 'rule';
      ruleName.style.color = '#9a9a9a';
      ruleName.textContent = ' (' + rule + ')';
      const text = document.createElement('span');
      text.className = 'message';
      text.textContent = ' ' + message;
      item.append(place, text, ruleName);
      list.append(item);
    }
    box.append(list);
    host.shadowRoot.replaceChildren(box);
    if (!host.isConnected) document.documentElement.append(host);
  });
})();</script>`;
}

/** `page` with its preview `<base href>` pointing here instead, and the client script at the top of its head. */
function rewritePage(page: string, preview: string, events: string): string {
  const based = page.split(`<base href="${preview}">`).join('<base href="/">');
  const script = clientScript(events);
  const head = /<head(?:\s[^>]*)?>/i.exec(based);
  if (head) return based.slice(0, head.index + head[0].length) + script + based.slice(head.index + head[0].length);
  return script + based;
}

/** Headers passed on from the server's answer (not those that describe its body as sent, which may change). */
const PASSED = ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options', 'last-modified'];

/** The event that shows `problems` (JSON keeps each on one line of the stream: it escapes line breaks). */
function problemsMessage(problems: readonly PageProblem[]): string {
  return `event: problems\ndata: ${JSON.stringify({ problems })}\n\n`;
}

/** Starts the local preview of `preview`. */
export async function startLivePreview(options: LivePreviewOptions): Promise<LivePreview> {
  const { preview } = options;
  const doFetch = options.fetch ?? fetch;
  const streams = new Set<ServerResponse>();
  let url = '';
  let problemsEvent = problemsMessage([]);

  async function proxy(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    // Everything but the theme's files stays here: the page's own address is the preview folder's root.
    const target = new URL(path.replace(/^\/+/, ''), preview);
    if (!target.href.startsWith(preview)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not a file of the theme\n');
      return;
    }
    const answer = await doFetch(target, { method: request.method === 'HEAD' ? 'HEAD' : 'GET', cache: 'no-store' });
    const headers: Record<string, string> = { 'cache-control': 'no-store' };
    for (const name of PASSED) {
      const value = answer.headers.get(name);
      if (value && name !== 'cache-control') headers[name] = value;
    }
    if (answer.ok && answer.headers.get('content-type')?.startsWith('text/html')) {
      const page = rewritePage(await answer.text(), preview, new URL(EVENTS_PATH, url).href);
      response.writeHead(answer.status, headers).end(request.method === 'HEAD' ? undefined : page);
      return;
    }
    const body = request.method === 'HEAD' ? undefined : Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, headers).end(body);
  }

  function listen(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      // The page's origin is opaque (its sandbox): `null`, and no web site's.
      'access-control-allow-origin': 'null',
    });
    // A browser that lost the stream (this process restarted) tries again after a second.
    response.write('retry: 1000\n: storefront-themes dev\n\n');
    response.write(problemsEvent);
    streams.add(response);
    response.on('close', () => streams.delete(response));
  }

  const server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Only GET and HEAD here\n');
      return;
    }
    if (request.url?.split('?')[0] === EVENTS_PATH) return listen(response);
    proxy(request, response).catch((error: Error) => {
      if (response.headersSent) return response.destroy();
      const message = `storefront-themes dev: the preview could not be read from the server (${error.message})\n`;
      response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new UsageError(`port ${options.port} of 127.0.0.1 is taken: pass --port N (0: any free port)`));
      } else reject(error);
    });
    server.listen(options.port, '127.0.0.1', resolve);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    get listeners() {
      return streams.size;
    },
    changed(path) {
      const css = path.toLowerCase().endsWith('.css');
      const message = `event: change\ndata: ${JSON.stringify({ path, css })}\n\n`;
      for (const stream of streams) stream.write(message);
    },
    problems(problems) {
      problemsEvent = problemsMessage(problems);
      for (const stream of streams) stream.write(problemsEvent);
    },
    async close() {
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Browsers keep idle connections open: without this, close() would wait for them to time out.
      server.closeAllConnections();
      await closed;
    },
  };
}
