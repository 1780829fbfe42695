/**
 * A resource's links: relation (with its documentation), the control beside it, then target, method, title, type
 * and templated (on a narrow screen a card per link, see explorer.css, with the control still beside the name).
 */
import type { Entity } from '@storefront-platform/sdk';
import { type Curies, docsUrl } from './docs-links.js';
import { h, tableHead } from './dom.js';
import { linkControl } from './link-controls.js';

export function linksView(entity: Entity, subject: string, curies: Curies, apiOrigin: string): HTMLElement {
  const rows = [...entity.links.values()].flat().map((link) => {
    const docs = docsUrl(link.rel, curies);
    return h(
      'tr',
      { 'data-rel': link.rel },
      h(
        'th',
        { scope: 'row' },
        h('code', null, link.rel),
        docs ? h('a', { class: 'docs', href: docs, 'aria-label': `docs of ${link.rel}` }, 'docs') : null,
      ),
      h('td', { class: 'controls' }, linkControl({ entity, link, subject }, apiOrigin)),
      h('td', { class: 'href', 'data-label': 'Target' }, h('code', null, link.href)),
      h('td', { 'data-label': 'Method' }, link.method),
      h('td', { 'data-label': 'Title' }, link.title ?? ''),
      h('td', { 'data-label': 'Type' }, link.type ?? ''),
      h('td', { 'data-label': 'Templated' }, link.templated ? 'yes' : ''),
    );
  });
  return h(
    'section',
    { class: 'links', 'aria-labelledby': 'links-title' },
    h('h3', { id: 'links-title' }, 'Links'),
    rows.length
      ? h(
          'table',
          null,
          tableHead(['Relation', 'Action', 'Target', 'Method', 'Title', 'Type', 'Templated']),
          h('tbody', null, ...rows),
        )
      : h('p', { class: 'muted' }, 'None.'),
  );
}
