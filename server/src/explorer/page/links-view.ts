/** A resource's links: relation (with its documentation), target, method, title, type, templated, and the control. */
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
      h('td', { class: 'href' }, h('code', null, link.href)),
      h('td', null, link.method),
      h('td', null, link.title ?? ''),
      h('td', null, link.type ?? ''),
      h('td', null, link.templated ? 'yes' : ''),
      h('td', null, linkControl({ entity, link, subject }, apiOrigin)),
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
          tableHead(['Relation', 'Target', 'Method', 'Title', 'Type', 'Templated', 'Action']),
          h('tbody', null, ...rows),
        )
      : h('p', { class: 'muted' }, 'None.'),
  );
}
