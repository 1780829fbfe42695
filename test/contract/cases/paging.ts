/** Paging of every list: walks over `next` (cursor links), offset pages, bad cursors. */
import { expect } from 'vitest';
import { BASE } from '../fixture.js';
import type { Session } from '../session.js';
import type { ContractCase } from './types.js';

/** Follows `next` from `url` until there is none; returns the items' ids in order. */
async function walk(s: Session, label: string, url: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let href: string | undefined = url;
  for (let n = 1; href; n++) {
    const page = (await s.send(`${label}, page ${n}`, href, { token })).json();
    ids.push(...page._embedded.items.map((item: { id: string }) => item.id));
    href = page._links.next?.href;
  }
  return ids;
}

export const pagingCases: ContractCase[] = [
  {
    name: 'paging: walks over next by cursor in every list, equal to the whole list',
    async run(s) {
      const admin = await s.token('admin');
      for (const [label, url] of [
        ['products by created_on', `${BASE}/products.json?sort=created_on.asc`],
        ['products by title, descending', `${BASE}/products.json?sort=title.desc&shop_ids=1`],
        ['orders by total', `${BASE}/orders.json?sort=total.asc`],
        ['shops', `${BASE}/shops.json?q=`],
      ] as const) {
        const whole = (await s.send(`${label}, whole`, `${url}&per_page=100`, { token: admin })).json();
        const ids = await walk(s, label, `${url}&per_page=2`, admin);
        expect(ids).toEqual(whole._embedded.items.map((item: { id: string }) => item.id));
      }
    },
  },
  {
    name: 'paging: a page by cursor and by offset, HEAD; a bad cursor is a 400',
    async run(s) {
      const admin = await s.token('admin');
      const first = (
        await s.send('first page', `${BASE}/products.json?sort=price.asc&per_page=3`, { token: admin })
      ).json();
      const next = first._links.next.href as string;
      expect(next).toContain('after=');
      expect((await s.send('second page by cursor', next, { token: admin })).status).toBe(200);
      await s.send('second page by offset', `${BASE}/products.json?sort=price.asc&per_page=3&page=2`, {
        token: admin,
      });
      const cursor = new URL(next).searchParams.get('after')!;
      for (const [label, query] of [
        ['malformed cursor', 'after=%%%'],
        ['cut cursor', `sort=price.asc&after=${cursor.slice(0, -4)}`],
        ['cursor of another sort', `sort=title.asc&after=${cursor}`],
        ['cursor twice', `sort=price.asc&after=${cursor}&after=${cursor}`],
      ]) {
        const reply = await s.send(label!, `${BASE}/products.json?${query}`, { token: admin });
        expect(reply.status).toBe(400);
        expect(reply.json()._class).toEqual(['errors']);
      }
      await s.send('cursor with HEAD', next, { token: admin, method: 'HEAD' });
    },
  },
];
