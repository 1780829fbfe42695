/** Building DOM: elements from a tag, attributes and children. Text is always text, never parsed as markup. */

/** A child: a node, text, or nothing (left out). */
export type Child = Node | string | number | null | undefined | false;

/** Attribute values: text, `true` for a boolean attribute, `false` or `undefined` to leave it out. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** `<tag attrs…>children…</tag>`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const name in attributes) {
    const value = attributes[name];
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends the children that are there. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** A table's head: one row of column headers. */
export function tableHead(columns: readonly string[]): HTMLTableSectionElement {
  return h('thead', null, h('tr', null, ...columns.map((column) => h('th', { scope: 'col' }, column))));
}

/** The element with this id, which the page's HTML has. */
export function byId<E extends HTMLElement>(id: string): E {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The explorer page has no #${id}`);
  return element as E;
}
