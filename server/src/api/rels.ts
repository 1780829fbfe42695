/** `GET /rels/{rel}`: a page per relation, from the registry: HTML for people, JSON for programs that ask for it. */
import type { Addresses } from '../core/types.js';
import { documentEntity, jsonEntity } from '../http/entity.js';
import { escapeHtml } from '../http/html.js';
import { notFound } from '../http/http-error.js';
import { weightOf, weights } from '../http/quality.js';
import type { Route } from '../http/route.js';
import { relationEntry, relationNames } from './registry.js';
import type { RelationEntry } from './relation-entry.js';

const HTML_TYPE = 'text/html; charset=utf-8';

/** Inline `code` spans of the registry's texts, escaped. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function page(name: string, entry: RelationEntry): string {
  const rows: [string, string][] = [
    ['Method', `<code>${entry.method.toUpperCase()}</code>`],
    ['Target', prose(entry.target)],
  ];
  if (entry.type) rows.push(['Media type', `<code>${escapeHtml(entry.type)}</code>`]);
  if (entry.title) rows.push(['Link title', escapeHtml(entry.title)]);
  rows.push(['Payload', entry.payload ? prose(entry.payload) : 'none']);
  const others = relationNames()
    .map((rel) => `<a href="${escapeHtml(rel.slice(4))}">${escapeHtml(rel)}</a>`)
    .join(' · ');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(name)} · Storefront API relations</title></head>
<body>
<h1><code>${escapeHtml(name)}</code></h1>
<p>${prose(entry.summary)}</p>
<table>
${rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('\n')}
</table>
<h2>Example</h2>
<pre>${escapeHtml(entry.example)}</pre>
<nav><h2>Other relations</h2><p>${others}</p></nav>
</body>
</html>
`;
}

/** The entry as JSON: what the HTML page shows, member by member. */
function jsonPage(addresses: Addresses, name: string, entry: RelationEntry) {
  const href = `${addresses.origin}/rels/${name.slice('svc:'.length)}`;
  return { _class: ['relation'], name, ...entry, _links: { self: { href } } };
}

/**
 * Whether the client prefers JSON (`application/json`, `application/hal+json`, any `+json`) to HTML, by the weights
 * of its `Accept` (RFC 9110 §12.5.1): a browser's names `text/html` first; a tie, or no `Accept`, is HTML, for people.
 */
function wantsJson(accept: string | null): boolean {
  const listed = weights(accept);
  const jsonTypes = [...listed].filter(([type]) => type === 'application/json' || type.endsWith('+json'));
  const json = jsonTypes.length
    ? Math.max(...jsonTypes.map(([, weight]) => weight))
    : (weightOf(listed, 'application/*', '*/*') ?? 0);
  const html = weightOf(listed, 'text/html', 'text/*', '*/*') ?? 0;
  return json > html;
}

export const relationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/:rel',
    scope: null,
    handle({ params, cache, context, request }) {
      const name = `svc:${params.rel}`;
      const entry = relationEntry(name);
      if (!entry) throw notFound(`No relation ${name}`);
      // The registry is fixed while the process runs: each page is built once.
      const now = context.clock.now();
      // The answer depends on `Accept`, which caches must key it by (RFC 9110 §12.5.5).
      const headers = { vary: 'Accept, Accept-Encoding' };
      if (wantsJson(request.headers.get('accept'))) {
        const build = () => jsonEntity(jsonPage(context.addresses, name, entry), now);
        return { entity: cache.cached(`rel-json:${name}`, [], build), headers };
      }
      const build = () => documentEntity(page(name, entry), HTML_TYPE, now);
      return { entity: cache.cached(`rel:${name}`, [], build), headers };
    },
  },
];
