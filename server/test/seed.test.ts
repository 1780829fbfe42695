import { inflateSync } from 'node:zlib';
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/oauth/secrets.js';
import { seed } from '../src/seed/index.js';

/**
 * The pixel indexes of a single-image GIF with a global colour table (GIF89a spec, appendix F), decoded
 * independently of the encoder under test.
 */
function decodeGifPixels(bytes: Buffer): number[] {
  const tableSize = bytes[10]! & 0x80 ? 3 * 2 ** ((bytes[10]! & 7) + 1) : 0;
  let at = 13 + tableSize;
  expect(bytes[at]).toBe(0x2c);
  at += 10;
  const minCodeSize = bytes[at++]!;
  const data: number[] = [];
  while (bytes[at]) {
    const length = bytes[at]!;
    data.push(...bytes.subarray(at + 1, at + 1 + length));
    at += length + 1;
  }
  const clear = 1 << minCodeSize;
  let table: number[][] = [];
  let width = minCodeSize + 1;
  let previous: number[] | undefined;
  const out: number[] = [];
  for (let bit = 0; bit + width <= data.length * 8; ) {
    let code = 0;
    for (let i = 0; i < width; i++, bit++) code |= ((data[bit >> 3]! >> (bit & 7)) & 1) << i;
    if (code === clear) {
      table = Array.from({ length: clear + 2 }, (_, i) => [i]);
      width = minCodeSize + 1;
      previous = undefined;
      continue;
    }
    if (code === clear + 1) return out;
    const entry = code < table.length ? table[code]! : [...previous!, previous![0]!];
    out.push(...entry);
    if (previous) table.push([...previous, entry[0]!]);
    if (table.length === 1 << width && width < 12) width++;
    previous = entry;
  }
  throw new Error('GIF data ended without an end code');
}

const fixed = { password: 'correct horse', clientSecret: 'not-so-secret' };

describe('seed', () => {
  it('gives the same data set for the same options', () => {
    // Preview keys aside: they are secrets, random whatever the options (see below).
    const withoutKeys = ({ dataset, credentials }: ReturnType<typeof seed>) => ({
      credentials,
      dataset: { ...dataset, themes: dataset.themes.map(({ preview_key, ...theme }) => theme) },
    });
    expect(withoutKeys(seed(fixed))).toEqual(withoutKeys(seed(fixed)));
    expect(seed({ ...fixed, seed: 2 }).dataset.products).not.toEqual(seed(fixed).dataset.products);
  });

  it('generates secrets unless given, and keeps only a hash of the password', async () => {
    const a = seed();
    const b = seed();
    expect(a.credentials.clientSecret).not.toBe(b.credentials.clientSecret);
    expect(a.credentials.password).not.toBe(b.credentials.password);
    const keys = (s: ReturnType<typeof seed>) => s.dataset.themes.map((theme) => theme.preview_key);
    expect(keys(seed(fixed))).not.toEqual(keys(seed(fixed)));
    expect(Buffer.from(a.credentials.clientSecret, 'base64url')).toHaveLength(32);
    const user = a.dataset.users.find((u) => u.login === a.credentials.login)!;
    expect(user.password_hash).not.toContain(a.credentials.password);
    const matches = await Promise.all(
      a.dataset.users.map((u) => verifyPassword(a.credentials.password, u.password_hash)),
    );
    expect(matches.filter(Boolean)).toHaveLength(1);
    expect(await verifyPassword(a.credentials.password, user.password_hash)).toBe(true);
  });

  it('honours given credentials', () => {
    const { dataset, credentials } = seed({ ...fixed, clientId: 'my-app', login: 'me' });
    expect(credentials).toMatchObject({ clientId: 'my-app', clientSecret: 'not-so-secret', login: 'me' });
    expect(dataset.apps[0]).toMatchObject({ client_id: 'my-app', client_secret: 'not-so-secret', owner_id: '1' });
    expect(dataset.users[0]?.login).toBe('me');
  });

  it('draws the same products, orders, templates and assets whatever credentials are given (--demo-* flags)', () => {
    const { products, orders, templates, assets } = seed().dataset;
    for (const given of [{ clientId: 'my-app' }, { clientSecret: 'x-secret' }, { password: 'pw' }, { login: 'me' }]) {
      const other = seed(given).dataset;
      expect(other.products, JSON.stringify(given)).toEqual(products);
      expect(other.orders, JSON.stringify(given)).toEqual(orders);
      expect(other.templates, JSON.stringify(given)).toEqual(templates);
      expect(other.assets, JSON.stringify(given)).toEqual(assets);
    }
  });

  it('lets the demo user administer two shops while a third, public one belongs to someone else', () => {
    const { dataset } = seed(fixed);
    const demo = dataset.users[0]!;
    const own = dataset.shops.filter((s) => s.owner_id === demo.id);
    const others = dataset.shops.filter((s) => s.owner_id !== demo.id);
    expect(own).toHaveLength(2);
    expect(others).toHaveLength(1);
    expect(others[0]?.public).toBe(true);
    expect(dataset.users.map((u) => u.id)).toContain(others[0]?.owner_id);
  });

  it('spreads the requested number of products over the shops, with unique ids and consistent orders', () => {
    const { dataset } = seed({ ...fixed, products: 1000, orders: 90 });
    expect(dataset.products).toHaveLength(1000);
    expect(new Set(dataset.products.map((p) => p.id)).size).toBe(1000);
    expect(new Set(dataset.products.flatMap((p) => p.variants.map((v) => v.id))).size).toBe(
      dataset.products.reduce((n, p) => n + p.variants.length, 0),
    );
    for (const shop of dataset.shops) expect(dataset.products.some((p) => p.shop_id === shop.id)).toBe(true);
    expect(dataset.orders).toHaveLength(90);
    expect(new Set(dataset.orders.map((o) => o.code)).size).toBe(90);
    const products = new Map(dataset.products.map((p) => [p.id, p]));
    for (const order of dataset.orders) {
      expect(order.line_items.length).toBeGreaterThan(0);
      for (const item of order.line_items) {
        const product = products.get(item.product_id)!;
        expect(product.shop_id).toBe(order.shop_id);
        expect(product.variants.map((v) => v.id)).toContain(item.variant_id);
      }
    }
    expect(seed({ ...fixed, products: 0 }).dataset.orders).toEqual([]);
  });

  it('makes 100 000 products', () => {
    const { dataset } = seed({ ...fixed, products: 100_000, orders: 10 });
    expect(dataset.products).toHaveLength(100_000);
    expect(dataset.products.at(-1)?.id).toBe('100000');
  });

  it('refuses a bad product count', () => {
    expect(() => seed({ products: -1 })).toThrow(RangeError);
    expect(() => seed({ products: 1.5 })).toThrow(/non-negative integer/);
  });

  it('gives each shop a production theme whose layout references its own templates and assets', () => {
    const { dataset } = seed(fixed);
    for (const shop of dataset.shops) {
      const themes = dataset.themes.filter((t) => t.shop_id === shop.id);
      expect(themes).toEqual([expect.objectContaining({ production: true })]);
      const templates = dataset.templates.filter((t) => t.theme_id === themes[0]!.id);
      const assets = dataset.assets.filter((a) => a.theme_id === themes[0]!.id);
      expect(templates.length).toBeGreaterThanOrEqual(10);
      expect(new Set(templates.map((t) => t.file_name.split('.').pop()))).toEqual(new Set(['html', 'css', 'js']));
      const layout = templates.find((t) => t.file_name === 'layout.html')!;
      const referenced = [...layout.body.matchAll(/(?:href|src)="([^"#]+)"/g)].map((m) => m[1]!);
      const files = new Set([...templates, ...assets].map((f) => f.file_name));
      expect(referenced.filter((name) => !files.has(name))).toEqual([]);
      expect(referenced.some((name) => name.endsWith('.css'))).toBe(true);
      expect(referenced.some((name) => name.endsWith('.js'))).toBe(true);
      expect(referenced.some((name) => name.endsWith('.png'))).toBe(true);
    }
  });

  it('stores real PNG and GIF bytes with their size and MD5 digest', () => {
    const { dataset } = seed(fixed);
    const types = new Set<string>();
    for (const asset of dataset.assets) {
      const bytes = Buffer.from(dataset.files.find((f) => f.id === asset.id)!.data, 'base64');
      expect(asset.file_size).toBe(bytes.length);
      expect(asset.digest).toBe(bytesToHex(md5(bytes)));
      types.add(asset.content_type);
      if (asset.content_type === 'image/png') {
        expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        const width = bytes.readUInt32BE(16);
        const height = bytes.readUInt32BE(20);
        const idatLength = bytes.readUInt32BE(33);
        const pixels = inflateSync(bytes.subarray(41, 41 + idatLength));
        expect(pixels.length).toBe(height * (width * 3 + 1));
      } else {
        expect(asset.content_type).toBe('image/gif');
        expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
        expect(bytes.at(-1)).toBe(0x3b);
        const width = bytes.readUInt16LE(6);
        const height = bytes.readUInt16LE(8);
        expect(decodeGifPixels(bytes)).toHaveLength(width * height);
      }
    }
    expect(types).toEqual(new Set(['image/png', 'image/gif']));
  });
});
