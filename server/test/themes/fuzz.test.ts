/**
 * Random bodies against every theme write: whatever arrives, the answer is a 2xx or a 4xx with the error body,
 * never a 5xx. Deterministic (a fixed PRNG seed), so that a failure reproduces.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Doc, useThemeServer } from './fixture.js';

const t = useThemeServer();
let templateUrl: string;
let assetUrl: string;
beforeAll(async () => {
  const theme = await t.json('/themes/2');
  templateUrl = (theme._embedded.templates as Doc[]).find((x) => x.file_name !== 'layout.html')!._links.self.href;
  assetUrl = (theme._embedded.assets as Doc[])[0]!._links['svc:delete_theme_asset'].href;
});

/** mulberry32: small, seedable, good enough to pick test inputs. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(20261121);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const STRINGS = [
  '',
  'layout.html',
  '../x.html',
  'a/b.css',
  'x.png',
  '\u0000',
  '__proto__',
  'é'.repeat(5),
  'iVBORw0KGgo=',
  '%2F',
  'a\\b.js',
  'data:image/png;base64,AAAA',
  ' ',
];
const KEYS = [
  'file_name',
  'body',
  'data',
  'title',
  'settings',
  'last_updated_on',
  '__proto__',
  'constructor',
  'id',
  '',
];

function value(depth: number): unknown {
  switch (Math.floor(random() * (depth > 3 ? 5 : 7))) {
    case 0:
      return pick(STRINGS);
    case 1:
      return pick([0, -1, 1.5, 1e308, 2 ** 53, Number.MAX_SAFE_INTEGER]);
    case 2:
      return pick([true, false, null]);
    case 3:
      return String.fromCharCode(
        ...Array.from({ length: Math.floor(random() * 20) }, () => Math.floor(random() * 0x3000)),
      );
    case 4:
      return pick(STRINGS) + pick(STRINGS);
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(KEYS), value(depth + 1)]));
  }
}

function body(): { body: BodyInit; type: string | undefined } {
  switch (Math.floor(random() * 5)) {
    case 0:
      return { body: JSON.stringify(value(0)), type: 'application/json' };
    case 1:
      return { body: JSON.stringify(value(0)).slice(0, -1), type: 'application/json' };
    case 2: {
      const form = new FormData();
      for (let i = Math.floor(random() * 3); i > 0; i--) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256));
        if (random() < 0.5) form.append(pick(['file', 'file_name', 'x']), new Blob([bytes]), pick(STRINGS) || 'f.png');
        else form.append(pick(['file', 'file_name', 'x']), pick(STRINGS));
      }
      return { body: form, type: undefined };
    }
    case 3:
      return {
        body: Uint8Array.from({ length: 100 }, () => Math.floor(random() * 256)),
        type: pick(['application/json', 'multipart/form-data; boundary=z', 'text/plain']),
      };
    default:
      return { body: '', type: pick(['application/json', undefined]) };
  }
}

describe('random bodies', () => {
  it('never get a 5xx from any theme write', async () => {
    const targets = () =>
      [
        ['PUT', `${t.base}/themes/2`],
        ['POST', `${t.base}/themes/2/templates`],
        ['PUT', templateUrl],
        ['POST', `${t.base}/themes/2/assets`],
        ['DELETE', assetUrl],
        ['POST', `${t.base}/shops/2/themes`],
      ] as const;
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const [method, url] = pick(targets());
      const { body: payload, type } = body();
      const response = await t.call(url, { method, body: payload, headers: type ? { 'content-type': type } : {} });
      seen.add(response.status);
      const text = await response.text();
      expect([method, url, response.status < 500]).toEqual([method, url, true]);
      if (response.status >= 400) expect(JSON.parse(text)._class).toEqual(['errors']);
    }
    // The inputs reached the validation, not just the front door.
    expect([...seen]).toEqual(expect.arrayContaining([400, 415, 422]));
  });
});
