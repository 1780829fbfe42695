/**
 * `eventEntity` against the real reference server: an event's `svc:subject` followed through a client costs a
 * 304 when the client's cache holds the version the event reports, a full answer without a cached copy (or
 * after a later change), and an event without a subject says so.
 */
import { type Template, UnknownRelationError } from '@storefront-platform/sdk';
import { type EventOf, eventEntity } from '@storefront-platform/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../helpers/reference-server.js';
import { templateUpdated } from './events.js';

let reference: ReferenceServer;
let subjectUrl: string;

beforeAll(async () => {
  reference = await startReferenceServer({ products: 1 });
  const root = await reference.client().root();
  const theme = await root.embedded('shops')[0]!.follow('self').follow('svc:theme');
  const template = theme.embedded('templates').find((t) => t.properties.file_name !== 'layout.html')!;
  subjectUrl = template.link('self').expand();
});
afterAll(() => reference?.server.close());

/** A client of the admin recording the status of every answer it receives. */
function recorded(options: { cache?: false } = {}) {
  const client = reference.client(options);
  const statuses: number[] = [];
  client.on('response', ({ status }) => statuses.push(status));
  return { client, statuses };
}

describe('eventEntity', () => {
  it('follows svc:subject with a 304 when the cache holds the version the event reports', async () => {
    const { client, statuses } = recorded();
    const read = await client.restore({ _links: { self: { href: subjectUrl } } }, subjectUrl).follow('self');
    const etag = read.response!.headers.get('etag')!;
    const event: EventOf<'template.updated'> = {
      ...templateUpdated('evt_e', reference.server.baseUrl, subjectUrl),
      data: { ...templateUpdated().data, etag },
    };
    statuses.length = 0;
    const subject = (await eventEntity(client, event).follow('svc:subject')) as Template;
    expect(statuses).toEqual([304]);
    expect(subject.response!.revalidated).toBe(true);
    expect(subject.response!.headers.get('etag')).toBe(event.data.etag);
    expect(subject._class).toEqual(['themeTemplate']);
  });

  it('answers in full without a cached copy, with cache: false, and after a later change', async () => {
    const event = templateUpdated('evt_f', reference.server.baseUrl, subjectUrl);
    for (const options of [{}, { cache: false as const }]) {
      const { client, statuses } = recorded(options);
      const subject = (await eventEntity(client, event).follow('svc:subject')) as Template;
      expect(statuses.at(-1)).toBe(200);
      expect(subject.response!.revalidated).toBe(false);
    }
    const { client, statuses } = recorded();
    const before = (await eventEntity(client, event).follow('svc:subject')) as Template;
    const etag = before.response!.headers.get('etag');
    await before.follow('svc:update_template', { body: `<p>changed ${Date.now()}</p>` });
    statuses.length = 0;
    const later = { ...event, data: { ...event.data, etag: etag! } };
    const after = (await eventEntity(client, later).follow('svc:subject')) as Template;
    // The write invalidated the cached copy: a plain GET, and a version newer than the event's.
    expect(statuses).toEqual([200]);
    expect(after.response!.headers.get('etag')).not.toBe(etag);
  });

  it('says when an event has no subject (a delete, a ping), and refuses an event without self', async () => {
    const client = reference.client();
    const { 'svc:subject': _, ...links } = templateUpdated()._links;
    const deleted = { ...templateUpdated(), type: 'template.deleted' as const, _links: links };
    const entity = eventEntity(client, deleted);
    expect(entity.can('svc:subject')).toBe(false);
    await expect(entity.follow('svc:subject')).rejects.toThrow(UnknownRelationError);
    const selfless = { ...deleted, _links: {} } as unknown as typeof deleted;
    expect(() => eventEntity(client, selfless)).toThrow('eventEntity: event evt_1 has no self link');
  });
});
