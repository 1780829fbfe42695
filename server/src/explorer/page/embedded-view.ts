/**
 * Embedded resources, one table per name: the resource's name as the link to it, a control per other link beside
 * it, then a column per simple member (on a narrow screen a card per resource, see explorer.css) (an image file shows as a thumbnail). A theme embeds hundreds of templates: the
 * first rows come with the page, the others in batches right after.
 */
import type { Entity } from '@storefront-platform/sdk';
import { h, tableHead } from './dom.js';
import { embeddedIn } from './follow-chain.js';
import { isResourceLink, linkControl } from './link-controls.js';
import { isScalar, labelOf, valueText } from './values.js';

function columnsOf(items: readonly Entity[]): string[] {
  const columns = new Set<string>();
  for (const item of items) {
    const properties = item.properties as Record<string, unknown>;
    for (const name in properties) if (isScalar(properties[name])) columns.add(name);
  }
  return [...columns];
}

/** Where a row's resource is embedded: in `parent`, under `name`. */
interface Place {
  parent: Entity;
  name: string;
}

function row(item: Entity, index: number, columns: readonly string[], place: Place, apiOrigin: string): HTMLElement {
  const properties = item.properties as Record<string, unknown>;
  const subject = labelOf(properties, `${item._class.join(' ') || 'item'} ${index + 1}`);
  embeddedIn(item, place.parent, place.name, index, subject);
  const links = [...item.links.values()].flat();
  const self = links.find((link) => link.rel === 'self' && !link.templated && isResourceLink(link));
  const controls = links
    .filter((link) => link !== self)
    .map((link) => {
      const target = { entity: item, link, subject };
      const image = link.method === 'GET' && /^image\//.test(link.type ?? '');
      return image
        ? h(
            'span',
            { class: 'file' },
            h('img', { src: link.resolve().url, alt: '', loading: 'lazy', width: 32, height: 32 }),
            linkControl(target, apiOrigin, link.rel),
          )
        : linkControl(target, apiOrigin, link.method === 'GET' ? link.rel : `${link.method} ${link.rel}`);
    });
  return h(
    'tr',
    null,
    h('th', { scope: 'row' }, self ? linkControl({ entity: item, link: self, subject }, apiOrigin, subject) : subject),
    // Beside the name of what they act on, at every width.
    h('td', { class: 'controls' }, ...controls),
    // The full value in a tooltip: cells are cut to their column's width.
    ...columns.map((name) => {
      const text = valueText(properties[name], true);
      return h('td', { title: text.length > 24 ? valueText(properties[name]) : undefined, 'data-label': name }, text);
    }),
  );
}

/** Rows drawn with the page; the rest follow in batches, so that the top of a long resource shows at once. */
const FIRST_ROWS = 40;
const BATCH_ROWS = 100;

/**
 * Appends rows `from` onwards in batches, one task each, so that the browser draws in between; once all are in,
 * the section loses `aria-busy` and gets `data-completed-at` (a `performance.now()` time, for the tests).
 */
function appendRows(
  section: HTMLElement,
  body: HTMLElement,
  rows: (from: number, to: number) => HTMLElement[],
  total: number,
  from: number,
): void {
  if (!body.isConnected && from > FIRST_ROWS) return;
  if (from >= total) {
    section.removeAttribute('aria-busy');
    section.dataset.completedAt = performance.now().toFixed(1);
    return;
  }
  body.append(...rows(from, Math.min(total, from + BATCH_ROWS)));
  setTimeout(() => appendRows(section, body, rows, total, from + BATCH_ROWS));
}

export function embeddedView(entity: Entity, apiOrigin: string): HTMLElement[] {
  const names = Object.keys(entity.toJSON()._embedded ?? {});
  return names.map((name) => {
    const items = entity.embedded(name as never) as Entity[];
    const columns = columnsOf(items);
    const id = `embedded-${name}`;
    const rows = (from: number, to: number) =>
      items.slice(from, to).map((item, i) => row(item, from + i, columns, { parent: entity, name }, apiOrigin));
    const body = h('tbody', null, ...rows(0, FIRST_ROWS));
    const section = h(
      'section',
      { class: 'embedded', 'aria-labelledby': id },
      h('h3', { id }, `Embedded: ${name} `, h('span', { class: 'count' }, `(${items.length})`)),
      items.length
        ? h(
            'div',
            { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': `${name} table` },
            h('table', null, tableHead(['Resource', 'Links', ...columns]), body),
          )
        : h('p', { class: 'muted' }, 'None.'),
    );
    if (items.length > FIRST_ROWS) {
      section.setAttribute('aria-busy', 'true');
      setTimeout(() => appendRows(section, body, rows, items.length, FIRST_ROWS));
    } else section.dataset.completedAt = performance.now().toFixed(1);
    return section;
  });
}
