/**
 * The control that follows a link, chosen by what following it does: a plain link for a JSON resource (the
 * page follows it itself, and a new tab or a copied address still works), a link out for a document (an HTML
 * page, an image), a button that opens a form for a template or a write. Controls are found again on click
 * through a weak map, so that a page of 300 rows needs no listener per row.
 */
import type { Entity, Link } from '@storefront-platform/sdk';
import { pageAddress } from './address.js';
import { h } from './dom.js';

/** A link of a resource, and the resource it belongs to. */
export interface LinkTarget {
  entity: Entity;
  link: Link;
  /** How the resource is named to the user, e.g. `layout.html`. */
  subject: string;
}

const targets = new WeakMap<Element, LinkTarget>();

/** The target of a control made by {@link linkControl}, if `element` is inside one. */
export function targetOf(element: Element): { control: Element; target: LinkTarget } | undefined {
  const control = element.closest('[data-link]');
  const target = control && targets.get(control);
  return control && target ? { control, target } : undefined;
}

/**
 * Whether following `link` gets a HAL resource (rather than a page or a file): no type, or HAL's or plain JSON's.
 * Another JSON (the root's `service-desc`, an OpenAPI document) is a file the browser shows, not a resource.
 */
export function isResourceLink(link: Link): boolean {
  return link.type === undefined || /^application\/(hal\+)?json\s*(;|$)/i.test(link.type);
}

/**
 * The control for `target`. `text` is what it shows (default: what it does); its accessible name starts with
 * that text and adds the relation and the resource, since a page shows many alike.
 */
export function linkControl(target: LinkTarget, apiOrigin: string, text?: string): HTMLElement {
  const { link, subject } = target;
  const named = (label: string) =>
    label === subject ? undefined : text ? `${label} of ${subject}` : `${label} ${link.rel} of ${subject}`;
  let control: HTMLElement;
  if (link.method !== 'GET') {
    const label = text ?? `${link.method}…`;
    const kind = link.method === 'DELETE' ? 'danger' : 'write';
    control = h('button', { type: 'button', class: kind, 'aria-label': named(label) }, label);
  } else if (link.templated) {
    const label = text ?? 'Fill in…';
    control = h('button', { type: 'button', 'aria-label': named(label) }, label);
  } else if (!isResourceLink(link)) {
    const label = text ?? 'Open';
    // A document is the browser's to show; it opens beside the explorer.
    const aria = `${named(label) ?? label} (${link.type}, new tab)`;
    return h('a', { href: link.resolve().url, target: '_blank', rel: 'noopener', 'aria-label': aria }, label);
  } else {
    const label = text ?? 'Follow';
    control = h('a', { href: pageAddress(link.resolve().url, apiOrigin), 'aria-label': named(label) }, label);
  }
  control.dataset.link = '';
  targets.set(control, target);
  return control;
}
