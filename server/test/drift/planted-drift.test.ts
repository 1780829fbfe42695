/**
 * `checkDrift` against our own server, as is (no disagreement) and through a proxy that plants one change per test,
 * each of which must be found and named; a change of volatile values (ids, dates) must not be.
 */
import { checkDrift, type DriftReport } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { type Answer, type Plant, type PlantingProxy, startPlantingProxy } from './planting-proxy.js';

let proxy: PlantingProxy;
let server: StorefrontServer;

beforeAll(async () => {
  proxy = await startPlantingProxy();
  server = await createServer({ port: 0, products: 12, publicUrl: proxy.origin });
  proxy.target = server.url;
});

afterAll(async () => {
  await server?.close();
  await proxy?.close();
});

/** A drift report of the API through the proxy, with `plant` planted. */
async function driftWith(plant: Plant | undefined): Promise<DriftReport> {
  proxy.plant = plant;
  const credentials = server.credentials!;
  try {
    return await checkDrift({
      url: `${proxy.origin}/v1`,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      sample: 2,
    });
  } finally {
    proxy.plant = undefined;
  }
}

/** `kind check path` of every disagreement. */
const named = (report: DriftReport) => report.disagreements.map((d) => `${d.kind} ${d.check} ${d.path}`);

const PRODUCT = /^\/v1\/shops\/[^/]+\/products\/[^/.]+(\.json)?$/;
const SHOP = /^\/v1\/shops\/[^/.]+(\.json)?$/;
const THEME = /^\/v1\/(themes\/[^/.]+|shops\/[^/]+\/theme\.json)$/;
const ORDER = /^\/v1\/shops\/[^/]+\/orders\/[^/.]+(\.json)?$/;

/** A plant that changes the JSON answers to GETs of paths matching `path`. */
const onAnswers = (path: RegExp, change: (answer: Answer) => void): Plant => ({
  answer(answer) {
    if (path.test(answer.path.split('?')[0]!) && answer.status === 200 && answer.body) change(answer);
  },
});

describe('checkDrift against our own server', () => {
  it('finds no disagreement, having read every kind the seed holds', async () => {
    const report = await driftWith(undefined);
    expect(report.disagreements).toEqual([]);
    for (const kind of ['Root', 'Shop', 'Product', 'ProductVariant', 'Order', 'OrderLineItem', 'Theme']) {
      expect(report.kinds[kind]?.checked, kind).toBeGreaterThan(0);
    }
    for (const kind of ['ThemeTemplate', 'ProductSummaryResults', 'OrderSummaryResults']) {
      expect(report.kinds[kind]?.reads, kind).toBeGreaterThan(0);
    }
  });
});

describe('checkDrift finds each planted change', () => {
  const cases: [string, Plant, string[]][] = [
    [
      'a renamed field',
      onAnswers(PRODUCT, ({ body }) => {
        body.name = body.title;
        delete body.title;
      }),
      ['Product field-missing title', 'Product field-extra name'],
    ],
    [
      'a type change',
      onAnswers(PRODUCT, ({ body }) => {
        body.price = String(body.price);
      }),
      ['Product field-type price'],
    ],
    [
      'a missing relation',
      onAnswers(SHOP, ({ body }) => {
        delete body._links['svc:theme'];
      }),
      ['Shop relation-missing _links.svc:theme'],
    ],
    [
      "a link's method changed",
      onAnswers(THEME, ({ body }) => {
        body._links['svc:update_theme'].method = 'post';
      }),
      ['Theme relation-method _links.svc:update_theme'],
    ],
    [
      'an _embedded member no longer an array',
      onAnswers(PRODUCT, ({ body }) => {
        body._embedded.shop = body._embedded.shop[0];
      }),
      ['Product embedded-shape _embedded.shop'],
    ],
    [
      'a missing ETag on a read',
      {
        answer(answer) {
          if (ORDER.test(answer.path)) answer.headers.delete('etag');
        },
      },
      ['Order header ETag', 'Order conditional-read ETag'],
    ],
    [
      'a link whose href is no URL',
      onAnswers(SHOP, ({ body }) => {
        body._links['svc:theme'].href = 'http://[bad';
      }),
      ['Shop field-value _links.svc:theme.href'],
    ],
    [
      'an extra field',
      onAnswers(/^\/v1\/themes\/[^/]+\/templates\/[^/]+$/, ({ body }) => {
        body.weight = 3;
      }),
      ['ThemeTemplate field-extra weight'],
    ],
    [
      'a field of a variant changed',
      onAnswers(PRODUCT, ({ body }) => {
        for (const variant of body._embedded.variants) variant.sku = 42;
      }),
      ['ProductVariant field-type sku'],
    ],
    [
      'a wrong content type',
      onAnswers(SHOP, ({ headers }) => {
        headers.set('content-type', 'text/plain; charset=utf-8');
      }),
      ['Shop content-type Content-Type'],
    ],
  ];

  for (const [name, plant, expected] of cases) {
    it(name, async () => {
      const report = await driftWith(plant);
      // Found where it was planted, and nothing else reported.
      expect(named(report).sort()).toEqual([...expected].sort());
      const found = report.disagreements.find((d) => `${d.kind} ${d.check} ${d.path}` === expected[0]);
      expect(found?.example).toMatch(new RegExp(`^${proxy.origin}/`));
      expect(found?.message).toBeTruthy();
    });
  }

  it('a wrong content type of the root: drift, not an API that cannot be read', async () => {
    const report = await driftWith(
      onAnswers(/^\/v1\/?$/, ({ headers }) => {
        headers.set('content-type', 'text/html');
      }),
    );
    expect(named(report)).toEqual(['Root content-type Content-Type']);
    expect(report.kinds.Product?.reads).toBe(2);
  });

  it('a 304 turned 200, on every kind read', async () => {
    const report = await driftWith({
      request(_path, headers) {
        headers.delete('if-none-match');
        headers.delete('if-modified-since');
      },
    });
    const kinds = Object.entries(report.kinds).filter(([, kind]) => kind.reads > 0);
    expect(named(report).sort()).toEqual(kinds.map(([kind]) => `${kind} conditional-read status`).sort());
    expect(report.disagreements[0]!.message).toMatch(/answered 200; the contract says 304/);
  });

  it('does not report a change of volatile values: ids, dates', async () => {
    let n = 0;
    const report = await driftWith(
      onAnswers(/^\/v1\//, ({ body }) => {
        const visit = (value: unknown) => {
          if (!value || typeof value !== 'object') return;
          const object = value as Record<string, unknown>;
          if (typeof object.id === 'string') object.id = `changed-${n++}`;
          for (const field of ['updated_on', 'created_on']) {
            if (typeof object[field] === 'string')
              object[field] = new Date(Date.UTC(2001, 0, 1, 0, 0, n++)).toISOString();
          }
          for (const member of Object.values(object)) if (member && typeof member === 'object') visit(member);
        };
        visit(body);
      }),
    );
    expect(n).toBeGreaterThan(50);
    expect(report.disagreements).toEqual([]);
  });
});
