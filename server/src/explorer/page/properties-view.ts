/** A resource's own members: one row each; a template's source and structured values as preformatted text. */
import { h } from './dom.js';
import { isScalar, valueText } from './values.js';

/** Members shown as source code: a template's `body`. */
const SOURCE = new Set(['body']);

export function propertiesView(properties: Record<string, unknown>): HTMLElement {
  const names = Object.keys(properties);
  const rows = names.map((name) => {
    const value = properties[name];
    const multiline = typeof value === 'string' && (value.includes('\n') || SOURCE.has(name));
    const cell =
      SOURCE.has(name) && typeof value === 'string'
        ? h('pre', { class: 'source', tabindex: 0, 'aria-label': `${name} source` }, h('code', null, value))
        : multiline || !isScalar(value)
          ? h('pre', null, valueText(value))
          : h('span', { class: `value ${value === null ? 'null' : typeof value}` }, valueText(value));
    return h('tr', null, h('th', { scope: 'row' }, name), h('td', { 'data-property': name }, cell));
  });
  return h(
    'section',
    { class: 'properties', 'aria-labelledby': 'properties-title' },
    h('h3', { id: 'properties-title' }, 'Properties'),
    names.length ? h('table', null, h('tbody', null, ...rows)) : h('p', { class: 'muted' }, 'None.'),
  );
}
