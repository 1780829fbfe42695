/** Events as the server delivers them, for the webhook tests. */
import type { EventOf } from '@storefront-platform/sdk/webhooks';

/** A secret as the server makes them: `whsec_` and base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/** A `template.updated` event of `base`, its subject the template at `subject` when given. */
export function templateUpdated(
  id = 'evt_1',
  base = 'http://127.0.0.1:4000/v1',
  subject = `${base}/themes/3/templates/12`,
): EventOf<'template.updated'> {
  return {
    _class: ['event'],
    id,
    type: 'template.updated',
    created_on: '2026-12-06T10:00:00.123Z',
    shop_id: '1',
    request_id: 'req-1',
    data: {
      id: '12',
      theme_id: '3',
      file_name: 'layout.html',
      name: 'layout',
      content_type: 'html',
      updated_on: '2026-12-06T10:00:00.123Z',
      etag: '"abc"',
    },
    _links: {
      self: { href: `${base}/events/${id}` },
      'svc:subject': { href: subject },
      'svc:shop': { href: `${base}/shops/1.json` },
    },
  };
}
