/**
 * How mocks start fast without sharing state: the demo data set is seeded once per process, frozen and shared;
 * images are drawn and hashed when first read; the demo password's hash is precomputed.
 */
import { decodeBase64Url } from '@storefront-platform/sdk/internal';
import { describe, expect, it } from 'vitest';
import { assetDigest } from '../../src/api/themes/asset.js';
import { createHandlers } from '../../src/msw/index.js';
import { initialData } from '../../src/msw/initial-data.js';
import { hashPassword, verifyPassword } from '../../src/oauth/secrets.js';
import { seed } from '../../src/seed/index.js';
import { precomputedPasswordHashes } from '../../src/seed/password-hash.js';
import { COLLECTIONS } from '../../src/store/collections.js';

describe('the demo data set of the mocks', () => {
  it('is seeded once per process, shared, and frozen: a row changed in place throws', () => {
    const a = initialData();
    const b = initialData({ seed: {} });
    expect(b.dataset).toBe(a.dataset);
    expect(initialData({ seed: { products: 5 } }).dataset).not.toBe(a.dataset);
    const product = a.dataset.products[0]!;
    expect(() => {
      (product as { title: string }).title = 'changed in place';
    }).toThrow(TypeError);
    expect(() => a.dataset.products.push(product)).toThrow(TypeError);
  });

  it('gives each mock its own state: a write to one is not seen by another, and reset() forgets it', async () => {
    const one = createHandlers();
    const two = createHandlers();
    // Copy on write: until a mock writes, it reads the very tables every other mock reads.
    expect(one.store.all('products')).toBe(two.store.all('products'));
    await one.store.write((tx) => tx.update('products', '1', { title: 'Only in mock one' }));
    expect(one.store.all('products')).not.toBe(two.store.all('products'));
    expect(one.store.get('products', '1')?.title).toBe('Only in mock one');
    expect(two.store.get('products', '1')?.title).not.toBe('Only in mock one');
    one.reset();
    expect(one.store.all('products')).toBe(two.store.all('products'));
    expect(one.store.get('products', '1')).toEqual(two.store.get('products', '1'));
    expect(createHandlers().store.get('products', '1')?.title).not.toBe('Only in mock one');
  });

  it('shares the representations of untouched data between mocks, never those of data a mock changed', async () => {
    const read = async (mock: ReturnType<typeof createHandlers>, path: string) => {
      const { accessToken } = await mock.issueToken({ scope: 'admin' });
      const handler = mock.handlers[0]!;
      const request = new Request(`${mock.baseUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
      const response = (await handler.run({ request, requestId: crypto.randomUUID() }))!.response!;
      return { etag: response.headers.get('etag'), body: await response.text() };
    };
    const [one, two] = [createHandlers(), createHandlers()];
    const before = await read(one, '/shops/1/theme.json');
    const template = one.store.all('templates').find((t) => t.theme_id === '1')!;
    await one.store.write((tx) => tx.update('templates', template.id, { body: '<p>only in mock one</p>' }));
    const changed = await read(one, '/shops/1/theme.json');
    expect(changed.etag).not.toBe(before.etag);
    expect(changed.body).toContain('only in mock one');
    // The other mock's data is untouched: it gets the representation built first, with its validators.
    expect(await read(two, '/shops/1/theme.json')).toEqual(before);
    one.reset();
    expect(await read(one, '/shops/1/theme.json')).toEqual(before);
    // Another origin, other links: not shared.
    const elsewhere = await read(createHandlers({ origin: 'http://shop.test' }), '/shops/1/theme.json');
    expect(elsewhere.body).toContain('http://shop.test/v1/');
    expect(elsewhere.body).not.toContain('localhost:4000');
  });

  it('reset() gives back every collection as it started, and ids start over', async () => {
    const mock = createHandlers();
    const fresh = createHandlers();
    const { id: _, ...theme } = fresh.store.all('themes')[0]!;
    const addTheme = async () => (await mock.store.write((tx) => tx.insert('themes', theme))).id;
    const firstId = await addTheme();
    await mock.issueToken({ scope: 'admin' });
    await mock.store.write((tx) => tx.delete('templates', mock.store.all('templates')[0]!.id));
    mock.reset();
    for (const name of COLLECTIONS) expect(mock.store.all(name)).toEqual(fresh.store.all(name));
    expect(await addTheme()).toBe(firstId);
  });

  it('draws images when first read, with the same bytes, digest and size as drawn at once', () => {
    const lazy = seed({ password: 'x', clientSecret: 'y' }).dataset;
    const descriptor = Object.getOwnPropertyDescriptor(lazy.assets[0], 'digest');
    expect(descriptor?.get).toBeTypeOf('function');
    // Every reader sees plain rows: JSON (what the JSON store writes), clones and spreads alike.
    const plain = JSON.parse(JSON.stringify(lazy));
    expect(structuredClone(lazy.assets)).toEqual(plain.assets);
    expect({ ...lazy.files[0] }).toEqual(plain.files[0]);
    // Another seed, read a field at a time in another order (the last image first, its file before its row):
    // each image is drawn by its own first reader, and must come out as the first seed's, drawn all at once above.
    const scattered = seed({ password: 'x', clientSecret: 'y' }).dataset;
    for (let i = scattered.assets.length - 1; i >= 0; i--) {
      const data = scattered.files[i]!.data;
      const asset = scattered.assets[i]!;
      expect([data, asset.file_size, asset.digest]).toEqual([
        plain.files[i].data,
        plain.assets[i].file_size,
        plain.assets[i].digest,
      ]);
    }
    // The digest and size are those of the bytes, as the server computes them for an upload.
    for (const [i, asset] of plain.assets.entries()) {
      const bytes = Buffer.from(plain.files[i].data, 'base64');
      expect(asset.digest).toBe(assetDigest(bytes));
      expect(asset.file_size).toBe(bytes.length);
    }
  });
});

describe('precomputed password hashes', () => {
  it('each is what hashPassword computes for its password and salt', () => {
    const table = precomputedPasswordHashes();
    expect(table.length).toBeGreaterThan(0);
    for (const [password, salt, hash] of table) expect(hashPassword(password, decodeBase64Url(salt)!)).toBe(hash);
  });

  it("is what the default mock's demo user gets, and the mock's demo password verifies against it", async () => {
    const { dataset, credentials } = initialData();
    const [, , hash] = precomputedPasswordHashes()[0]!;
    expect(dataset.users[0]!.password_hash).toBe(hash);
    expect(await verifyPassword(credentials!.password!, hash)).toBe(true);
  });
});
