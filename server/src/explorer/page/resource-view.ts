/** One resource: its name and `_class`, an image when it is one, its properties, links and embedded resources. */
import type { Entity } from '@storefront-platform/sdk';
import { curiesOf } from './docs-links.js';
import { h } from './dom.js';
import { embeddedView } from './embedded-view.js';
import { linksView } from './links-view.js';
import { propertiesView } from './properties-view.js';
import { labelOf } from './values.js';

function imageOf(entity: Entity, subject: string): HTMLElement | null {
  const file = entity.links.get('file')?.[0];
  if (!file || !/^image\//.test(file.type ?? '')) return null;
  return h('figure', { class: 'image' }, h('img', { src: file.resolve().url, alt: subject }));
}

export function resourceView(entity: Entity, apiOrigin: string): HTMLElement {
  const properties = entity.properties as Record<string, unknown>;
  const subject = labelOf(properties, entity._class.join(' ') || 'resource');
  const document = entity.toJSON();
  return h(
    'article',
    { class: 'resource', 'aria-labelledby': 'resource-title' },
    h('h2', { id: 'resource-title', tabindex: -1 }, subject),
    h(
      'p',
      { class: 'classes' },
      h('span', { class: 'muted' }, '_class '),
      ...entity._class.map((name) => h('code', { class: 'class' }, name)),
    ),
    imageOf(entity, subject),
    propertiesView(properties),
    linksView(entity, subject, curiesOf(document, entity.response?.url ?? apiOrigin), apiOrigin),
    ...embeddedView(entity, apiOrigin),
  );
}
