/**
 * The preview page: the theme's `layout.html` with a `<base href>` at the top of its head, so that every
 * relative reference (stylesheets, scripts, images, and the stylesheets' own `url(…)`s) resolves under the
 * preview folder, where the theme's templates and assets are served by file name.
 */
import { escapeHtml } from '../../http/html.js';

const HEAD = /<head(?:\s[^>]*)?>/i;
const DOCTYPE = /^\s*<!doctype[^>]*>/i;

/** `layout` with `<base href="folder">` as the first element of its head (or of the document without one). */
export function previewPage(layout: string, folder: string): string {
  const base = `<base href="${escapeHtml(folder)}">`;
  const head = HEAD.exec(layout);
  if (head) return layout.slice(0, head.index + head[0].length) + base + layout.slice(head.index + head[0].length);
  // Without a head, after the doctype: anything before it would put the browser in quirks mode.
  const doctype = DOCTYPE.exec(layout);
  const at = doctype ? doctype[0].length : 0;
  return layout.slice(0, at) + base + layout.slice(at);
}
