/**
 * Spec §2.1: `_embedded` maps each name to an *array* of resources, even of one. A walk from the root along every
 * readable link (untemplated GETs, embedded resources' own `self` included) checks every embedded member of every
 * representation it sees, at every depth.
 */
import { expect } from 'vitest';
import { BASE, ORIGIN } from '../fixture.js';
import type { Doc } from '../session.js';
import type { ContractCase } from './types.js';

/** Enough to reach every kind of representation of the seeded data (root, shops, products, orders, themes). */
const MAX_DOCUMENTS = 60;

interface LinkObject {
  href?: unknown;
  templated?: unknown;
  method?: unknown;
}

/** The untemplated GET links of `doc` and of the resources it embeds, at any depth. */
function readableLinks(doc: Doc): string[] {
  const out: string[] = [];
  for (const [rel, value] of Object.entries((doc._links ?? {}) as Record<string, LinkObject | LinkObject[]>)) {
    if (rel === 'curies') continue;
    for (const link of Array.isArray(value) ? value : [value]) {
      const method = typeof link.method === 'string' ? link.method.toUpperCase() : 'GET';
      if (typeof link.href === 'string' && link.templated !== true && method === 'GET') out.push(link.href);
    }
  }
  for (const members of Object.values((doc._embedded ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(members)) for (const member of members) out.push(...readableLinks(member as Doc));
  }
  return out;
}

/** Every embedded member of `doc`, at any depth, must be an array of resources (objects with a `_class`). */
function checkEmbedded(doc: Doc, where: string, seen: Set<string>): void {
  for (const [name, members] of Object.entries((doc._embedded ?? {}) as Record<string, unknown>)) {
    const path = `${where} _embedded.${name}`;
    expect(Array.isArray(members), `${path} is an array`).toBe(true);
    for (const [i, member] of (members as unknown[]).entries()) {
      const isResource =
        typeof member === 'object' &&
        member !== null &&
        !Array.isArray(member) &&
        Array.isArray((member as Doc)._class);
      expect(isResource, `${path}[${i}] is a resource`).toBe(true);
      seen.add(`${(member as Doc)._class.join(',')} in ${name}`);
      checkEmbedded(member as Doc, `${path}[${i}]`, seen);
    }
  }
}

export const embeddedCases: ContractCase[] = [
  {
    name: 'every embedded member of every representation reached from the root is an array of resources',
    async run(s) {
      const admin = await s.token('admin');
      // The lists behind templated links (`svc:products`, `svc:orders` take a query) are where the walk starts too.
      const queue = [BASE, `${BASE}/products.json?per_page=3`, `${BASE}/orders.json?per_page=3`];
      const visited = new Set<string>(queue);
      const seen = new Set<string>();
      for (let i = 0; i < queue.length && i < MAX_DOCUMENTS; i++) {
        const url = queue[i]!;
        const reply = await s.send(`walk: ${url.slice(ORIGIN.length)}`, url, { token: admin });
        if (reply.status !== 200 || !reply.headers.get('content-type')?.startsWith('application/json')) continue;
        const doc = reply.json();
        checkEmbedded(doc, url.slice(ORIGIN.length), seen);
        for (const href of readableLinks(doc)) {
          if (href.startsWith(BASE) && !visited.has(href)) {
            visited.add(href);
            queue.push(href);
          }
        }
      }
      // The walk reached the representations that embed something.
      expect([...seen]).toEqual(
        expect.arrayContaining([
          'shop in shops',
          'productVariant in variants',
          'shop in shop',
          'orderLineItem in line_items',
        ]),
      );
    },
  },
];
