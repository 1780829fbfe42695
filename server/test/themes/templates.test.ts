import { describe, expect, it } from 'vitest';
import { type Doc, useThemeServer } from './fixture.js';

const t = useThemeServer();

const templates = '/themes/1/templates';
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

async function templateNamed(fileName: string, themeId = '1'): Promise<Doc | undefined> {
  const theme = await t.json(`/themes/${themeId}`);
  return (theme._embedded.templates as Doc[]).find((x) => x.file_name === fileName);
}

/** The theme's ETag: it moves whenever anything in the theme changes. */
const themeTag = async () => (await t.call('/themes/1')).headers.get('etag');

describe('GET a template', () => {
  it('returns the template with curies, X-OAuth-Scopes admin, 304, HEAD and JSONP', async () => {
    const layout = (await templateNamed('layout.html'))!;
    const url = `${templates}/${layout.id}`;
    const response = await t.call(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-oauth-scopes')).toBe('admin');
    const text = await response.text();
    const doc = JSON.parse(text) as Doc;
    expect(doc).toMatchObject({ _class: ['themeTemplate'], id: layout.id, file_name: 'layout.html', name: 'layout' });
    expect(doc.content_type).toBe('html');
    expect(doc.body).toBe(layout.body);
    expect(doc._links.curies[0].name).toBe('svc');
    expect(doc._links['svc:delete_template']).toBeUndefined();

    const etag = response.headers.get('etag')!;
    expect((await t.call(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const lastModified = response.headers.get('last-modified')!;
    expect((await t.call(`${url}.json`, { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
    const head = await t.call(url, { method: 'HEAD' });
    expect([head.status, await head.text(), head.headers.get('etag')]).toEqual([200, '', etag]);
    const jsonp = await t.call(`${url}.jsonp?callback=app.cb`);
    expect(await jsonp.text()).toBe(`/**/app.cb(${text});`);
  });

  it('is 404 through another theme, for unknown ids and for other people’s themes', async () => {
    const layout = (await templateNamed('layout.html'))!;
    expect((await t.call(`/themes/2/templates/${layout.id}`)).status).toBe(404);
    expect((await t.call(`${templates}/99999`)).status).toBe(404);
    const other = (await t.json('/shops/3/theme.json', { token: t.otherAdmin }))._embedded.templates[0] as Doc;
    expect((await t.call(other._links.self.href)).status).toBe(404);
    expect((await t.call(other._links.self.href, { token: t.otherAdmin })).status).toBe(200);
  });
});

describe('POST …/templates', () => {
  it('creates a template: 201, Location, derived name and content type', async () => {
    const before = await themeTag();
    const response = await t.call(templates, {
      method: 'POST',
      json: { file_name: 'partials/footer.html', body: '<footer>Hi</footer>' },
    });
    expect(response.status).toBe(201);
    const doc = (await response.json()) as Doc;
    expect(response.headers.get('location')).toBe(`${t.base}${templates}/${doc.id}`);
    expect(doc).toMatchObject({ file_name: 'partials/footer.html', name: 'partials/footer', content_type: 'html' });
    expect(doc._links['svc:delete_template']).toBeDefined();
    expect(await themeTag()).not.toBe(before);
    expect((await t.json(response.headers.get('location')!)).body).toBe('<footer>Hi</footer>');
  });

  it('upserts by file name (200), guarded by last_updated_on', async () => {
    const created = await t.json(templates, {
      method: 'POST',
      json: { file_name: 'styles/extra.css', body: 'a{}' },
      status: 201,
    });
    expect(created.content_type).toBe('css');
    const seen = epochSeconds(created.updated_on);
    const upserted = await t.json(templates, {
      method: 'POST',
      json: { file_name: 'styles/extra.css', body: 'b{}', last_updated_on: seen },
      status: 200,
    });
    expect(upserted).toMatchObject({ id: created.id, body: 'b{}' });
    expect(Date.parse(upserted.updated_on)).toBeGreaterThan(Date.parse(created.updated_on));
    const stale = await t.json(templates, {
      method: 'POST',
      json: { file_name: 'styles/extra.css', body: 'c{}', last_updated_on: seen - 60 },
      status: 422,
    });
    expect(stale._embedded.errors[0].field).toBe('updated_on');
    expect((await t.json(`${templates}/${created.id}`)).body).toBe('b{}');
  });
});

describe('PUT …/templates/{id}', () => {
  it('updates the body with a matching guard and refuses a stale one (422 on updated_on)', async () => {
    const doc = await t.json(templates, {
      method: 'POST',
      json: { file_name: 'scripts/x.js', body: '1' },
      status: 201,
    });
    const url = `${templates}/${doc.id}`;
    const updated = await t.json(url, {
      method: 'PUT',
      json: { body: '2', last_updated_on: epochSeconds(doc.updated_on) },
      status: 200,
    });
    expect(updated).toMatchObject({ id: doc.id, body: '2', content_type: 'js', file_name: 'scripts/x.js' });
    const stale = await t.json(url, { method: 'PUT', json: { body: '3', last_updated_on: 1 }, status: 422 });
    expect(stale).toMatchObject({ _class: ['errors'], _embedded: { errors: [{ field: 'updated_on' }] } });
    expect((await t.json(url)).body).toBe('2');
  });

  it('renames a template, keeping file names unique and layout.html in place', async () => {
    const doc = await t.json(templates, { method: 'POST', json: { file_name: 'old.html', body: 'x' }, status: 201 });
    const url = `${templates}/${doc.id}`;
    const renamed = await t.json(url, { method: 'PUT', json: { file_name: 'pages/new.html' }, status: 200 });
    expect(renamed).toMatchObject({ file_name: 'pages/new.html', name: 'pages/new', body: 'x' });
    expect(await templateNamed('old.html')).toBeUndefined();
    const taken = await t.json(url, { method: 'PUT', json: { file_name: 'index.html' }, status: 422 });
    expect(taken._embedded.errors[0].field).toBe('file_name');
    const layout = (await templateNamed('layout.html'))!;
    const away = await t.json(`${templates}/${layout.id}`, {
      method: 'PUT',
      json: { file_name: 'main.html' },
      status: 422,
    });
    expect(away._embedded.errors[0].field).toBe('file_name');
    expect(await templateNamed('layout.html')).toBeDefined();
  });

  it('honours If-Match (412) on PUT and DELETE', async () => {
    const doc = await t.json(templates, {
      method: 'POST',
      json: { file_name: 'guarded.html', body: 'x' },
      status: 201,
    });
    const url = `${templates}/${doc.id}`;
    const etag = (await t.call(url)).headers.get('etag')!;
    const stale = { 'if-match': '"nope"' };
    expect((await t.call(url, { method: 'PUT', json: { body: 'y' }, headers: stale })).status).toBe(412);
    expect((await t.call(url, { method: 'DELETE', headers: stale })).status).toBe(412);
    // Preconditions come before the content (RFC 9110 §13.2.1): an invalid or malformed body is still a 412.
    expect((await t.call(url, { method: 'PUT', json: { body: 1, bdy: 'typo' }, headers: stale })).status).toBe(412);
    const malformed = { 'if-match': '"nope"', 'content-type': 'application/json' };
    expect((await t.call(url, { method: 'PUT', body: '{', headers: malformed })).status).toBe(412);
    expect((await t.json(url)).body).toBe('x');
    expect((await t.call(url, { method: 'PUT', json: { body: 'y' }, headers: { 'if-match': etag } })).status).toBe(200);
    expect((await t.call(url, { method: 'DELETE', headers: { 'if-match': etag } })).status).toBe(412);
  });
});

describe('DELETE …/templates/{id}', () => {
  it('deletes a template (204), which then is 404 and gone from the theme', async () => {
    const doc = await t.json(templates, { method: 'POST', json: { file_name: 'gone.html', body: 'x' }, status: 201 });
    const before = await themeTag();
    const response = await t.call(`${templates}/${doc.id}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await t.call(`${templates}/${doc.id}`)).status).toBe(404);
    expect(await templateNamed('gone.html')).toBeUndefined();
    expect(await themeTag()).not.toBe(before);
    expect((await t.call(`${templates}/${doc.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses to delete layout.html (422)', async () => {
    const layout = (await templateNamed('layout.html'))!;
    const error = await t.json(`${templates}/${layout.id}`, { method: 'DELETE', status: 422 });
    expect(error._class).toEqual(['errors']);
    expect(await templateNamed('layout.html')).toBeDefined();
  });
});

describe('bad template writes: each gets its 4xx and nothing is stored', () => {
  const raw = (body: string | Uint8Array<ArrayBuffer>, contentType = 'application/json') => ({
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
  });
  const cases: [string, RequestInit, number, string | undefined][] = [
    ['malformed JSON', raw('{"file_name": "a.html", "body": '), 400, undefined],
    ['invalid UTF-8', raw(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])), 400, undefined],
    ['a JSON string', raw('"layout.html"'), 400, undefined],
    ['a form body', raw('file_name=a.html&body=x', 'application/x-www-form-urlencoded'), 415, undefined],
    ['an unknown field', raw(JSON.stringify({ file_name: 'a.html', body: 'x', bodyy: 'typo' })), 422, 'bodyy'],
    ['a __proto__ key', raw('{"file_name":"a.html","body":"x","__proto__":{"admin":true}}'), 422, '__proto__'],
    ['a missing body', raw(JSON.stringify({ file_name: 'a.html' })), 422, 'body'],
    ['a number as body', raw(JSON.stringify({ file_name: 'a.html', body: 5 })), 422, 'body'],
    [
      'a fractional last_updated_on',
      raw(JSON.stringify({ file_name: 'a.html', body: '', last_updated_on: 1.5 })),
      422,
      'last_updated_on',
    ],
    [
      'a string last_updated_on',
      raw(JSON.stringify({ file_name: 'a.html', body: '', last_updated_on: '1' })),
      422,
      'last_updated_on',
    ],
    ['a parent path', raw(JSON.stringify({ file_name: '../layout.html', body: '' })), 422, 'file_name'],
    ['an encoded slash', raw(JSON.stringify({ file_name: '..%2Flayout.html', body: '' })), 422, 'file_name'],
    ['a NUL', raw(JSON.stringify({ file_name: 'a\u0000.html', body: '' })), 422, 'file_name'],
    ['a backslash', raw(JSON.stringify({ file_name: 'a\\b.html', body: '' })), 422, 'file_name'],
    ['an absolute path', raw(JSON.stringify({ file_name: '/etc/a.html', body: '' })), 422, 'file_name'],
    ['three segments', raw(JSON.stringify({ file_name: 'a/b/c.html', body: '' })), 422, 'file_name'],
    ['another extension', raw(JSON.stringify({ file_name: 'a.php', body: '' })), 422, 'file_name'],
    ['a body over 64 KiB', raw(JSON.stringify({ file_name: 'big.html', body: 'é'.repeat(40_000) })), 413, undefined],
    [
      'a request far over the limit',
      raw(JSON.stringify({ file_name: 'big.html', body: 'x'.repeat(3_000_000) })),
      413,
      undefined,
    ],
  ];
  it.each(cases)('%s → %i', async (_, init, status, field) => {
    const before = await themeTag();
    const count = t.server.store.all('templates').length;
    const response = await t.call(templates, init);
    expect(response.status).toBe(status);
    const error = (await response.json()) as Doc;
    expect(error._class).toEqual(['errors']);
    if (field) expect(error._embedded.errors).toEqual([{ field, messages: [expect.any(String)] }]);
    expect(await themeTag()).toBe(before);
    expect(t.server.store.all('templates').length).toBe(count);
  });

  it('refuses bad updates the same way', async () => {
    const layout = (await templateNamed('layout.html'))!;
    const url = `${templates}/${layout.id}`;
    const before = await themeTag();
    for (const [json, status] of [
      [{ file_name: '../x.html' }, 422],
      [{ body: null }, 422],
      [{ id: '7' }, 422],
      [{ body: 'x'.repeat(70_000) }, 413],
    ] as const) {
      expect((await t.call(url, { method: 'PUT', json })).status).toBe(status);
    }
    expect(await themeTag()).toBe(before);
  });

  it('answers 404, not 422, for a path trick in the URL', async () => {
    for (const path of ['/themes/1/templates/..%2F1', '/themes/1/templates/%00', '/themes/1/templates/%E0%A4%A']) {
      expect([400, 404]).toContain((await t.call(path)).status);
    }
  });
});

describe('validators of the theme as a collection', () => {
  it('change on add, change and delete of a template', async () => {
    const tags = [await themeTag()];
    const doc = await t.json(templates, { method: 'POST', json: { file_name: 'v.html', body: '1' }, status: 201 });
    tags.push(await themeTag());
    await t.json(`${templates}/${doc.id}`, { method: 'PUT', json: { body: '2' }, status: 200 });
    tags.push(await themeTag());
    await t.call(`${templates}/${doc.id}`, { method: 'DELETE' });
    tags.push(await themeTag());
    expect(new Set(tags).size).toBe(4);
  });
});

describe('concurrency', () => {
  it('keeps all of 200 template writes sent at once from parallel clients', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `load/t${i}.html`);
    const responses = await Promise.all(
      names.map((file_name, i) =>
        t.call(templates, { method: 'POST', json: { file_name, body: `<p>${i}</p>` }, keepalive: false }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(names.map(() => 201));
    const theme = await t.json('/themes/1');
    const stored = new Map((theme._embedded.templates as Doc[]).map((x) => [x.file_name, x.body]));
    expect(names.map((name) => stored.get(name))).toEqual(names.map((_, i) => `<p>${i}</p>`));
    // And 200 concurrent updates of one template leave exactly one of them, intact.
    const target = (await templateNamed('load/t0.html'))!;
    const updates = await Promise.all(
      names.map((_, i) => t.call(`${templates}/${target.id}`, { method: 'PUT', json: { body: `v${i}` } })),
    );
    expect(updates.every((r) => r.status === 200)).toBe(true);
    expect((await t.json(`${templates}/${target.id}`)).body).toMatch(/^v\d+$/);
  });
});
