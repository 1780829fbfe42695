/** `GET /rels/{rel}`: a human-readable page per relation, from the registry. */
import { documentEntity } from '../http/entity.js';
import { escapeHtml } from '../http/html.js';
import { notFound } from '../http/http-error.js';
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

export const relationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/:rel',
    scope: null,
    handle({ params, cache, context }) {
      const name = `svc:${params.rel}`;
      const entry = relationEntry(name);
      if (!entry) throw notFound(`No relation ${name}`);
      // The registry is fixed while the process runs: each page is built once.
      const build = () => documentEntity(page(name, entry), HTML_TYPE, context.clock.now());
      return { entity: cache.cached(`rel:${name}`, [], build) };
    },
  },
];
