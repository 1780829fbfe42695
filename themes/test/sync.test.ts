/** pull → edit → push through the real bin against the reference server: what travels, and what conflicts. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { md5 } from '../src/theme/digest.js';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const themes = useThemesServer();

describe('pull, edit, push', BIN_TESTS, () => {
  it('round-trips templates and assets byte for byte, and sends only what changed', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'theme');
    const pulled = await t.cli(['pull', dir, '--shop', 'northwind'], { config });
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/^Pulled "Northwind Classic" of Northwind Outfitters into .+: \d+ created$/m);

    const { theme } = await t.theme();
    const manifest = JSON.parse(await readFile(join(dir, '.storefront-theme.json'), 'utf8'));
    expect(manifest.theme).toMatchObject({ id: theme.properties.id, production: true });
    for (const template of theme.embedded('templates')) {
      const { file_name, body, id, updated_on } = template.properties;
      expect(await readFile(join(dir, file_name), 'utf8')).toBe(body);
      const links = template.toJSON()._links;
      expect(manifest.files[file_name]).toEqual({
        kind: 'template',
        name: file_name,
        id,
        updated_on,
        md5: md5(body),
        links,
      });
    }
    for (const asset of theme.embedded('assets')) {
      const bytes = await readFile(join(dir, 'assets', asset.properties.file_name));
      expect(md5(bytes)).toBe(asset.properties.digest);
      expect(manifest.files[`assets/${asset.properties.file_name}`].md5).toBe(asset.properties.digest);
    }

    // One template edited, one added, one deleted; an asset replaced and one added.
    const layout = `${await readFile(join(dir, 'layout.html'), 'utf8')}<!-- é edited locally -->\n`;
    await writeFile(join(dir, 'layout.html'), layout);
    await writeFile(join(dir, 'partials/promo.html'), '<p>Free shipping</p>\n');
    const deletable = '404.html';
    await rm(join(dir, deletable));
    const replaced = theme.embedded('assets')[0]!.properties.file_name;
    await writeFile(join(dir, 'assets', replaced), PNG);
    await writeFile(join(dir, 'assets/images/dot.png'), PNG);

    const status = await t.cli(['status', dir], { config });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('5 changes: 5 to push, 0 to pull, 0 conflicts');
    expect(status.stdout).toMatch(/changed here\s+layout\.html/);

    const before = t.requests.length;
    const pushed = await t.cli(['push', dir, '--json'], { config });
    expect(pushed.code).toBe(0);
    const result = JSON.parse(pushed.stdout);
    expect(result.files).toEqual(
      [
        { path: 'assets/images/dot.png', kind: 'asset', action: 'created' },
        { path: `assets/${replaced}`, kind: 'asset', action: 'updated' },
        { path: deletable, kind: 'template', action: 'deleted' },
        { path: 'layout.html', kind: 'template', action: 'updated' },
        { path: 'partials/promo.html', kind: 'template', action: 'created' },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
    expect(t.writesSince(before)).toHaveLength(5);

    const after = await theme.follow('self');
    const bodies = new Map(after.embedded('templates').map((x) => [x.properties.file_name, x.properties.body]));
    expect(bodies.get('layout.html')).toBe(layout);
    expect(bodies.get('partials/promo.html')).toBe('<p>Free shipping</p>\n');
    expect(bodies.has(deletable)).toBe(false);
    const digests = new Map(after.embedded('assets').map((x) => [x.properties.file_name, x.properties.digest]));
    expect(digests.get(replaced)).toBe(md5(PNG));
    expect(digests.get('images/dot.png')).toBe(md5(PNG));
    const dot = after.embedded('assets').find((x) => x.properties.file_name === 'images/dot.png')!;
    expect(Buffer.from(await (await dot.follow('file')).arrayBuffer()).equals(PNG)).toBe(true);

    // Nothing left to send: a second push writes nothing, and a fresh pull elsewhere gets the same bytes.
    const again = t.requests.length;
    const second = await t.cli(['push', dir], { config });
    expect(second.stdout).toContain('Nothing to push');
    expect(t.writesSince(again)).toEqual([]);
    // A template edited alone travels in one request, the guarded PUT: the theme is not read first.
    await writeFile(join(dir, 'layout.html'), `${layout}<!-- once more -->\n`);
    const once = t.requests.length;
    const third = await t.cli(['push', dir], { config });
    expect(third.stdout).toMatch(/updated\s+layout\.html/);
    expect(t.requests.slice(once)).toEqual([expect.stringMatching(/^PUT \/v1\/themes\/\d+\/templates\/\d+ 200\b/)]);
    const copy = join(await t.tempDir(), 'copy');
    expect((await t.cli(['pull', copy, '--shop', 'northwind'], { config })).code).toBe(0);
    for (const path of ['layout.html', 'partials/promo.html', 'assets/images/dot.png', `assets/${replaced}`]) {
      expect(md5(await readFile(join(copy, path)))).toBe(md5(await readFile(join(dir, path))));
    }
  });

  it('reports a file changed on both sides as a conflict (exit 3), sends the rest, and --force sends it', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const [mine, theirs] = [join(await t.tempDir(), 'mine'), join(await t.tempDir(), 'theirs')];
    for (const dir of [mine, theirs])
      expect((await t.cli(['pull', dir, '--shop', 'northwind'], { config })).code).toBe(0);

    // Someone else pushes index.html; a second later (so that updated_on moves), I edit it too, and another file.
    await writeFile(join(theirs, 'index.html'), '<p>theirs</p>\n');
    expect((await t.cli(['push', theirs], { config })).code).toBe(0);
    t.clock.advance(1000);
    await writeFile(join(mine, 'index.html'), '<p>mine</p>\n');
    await writeFile(join(mine, 'page.html'), '<p>page</p>\n');

    const status = await t.cli(['status', mine], { config });
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/conflict \(changed here, changed on the server\)\s+index\.html/);
    const diff = await t.cli(['diff', mine], { config });
    expect(diff.stdout).toContain('--- server/index.html\n+++ folder/index.html');
    expect(diff.stdout).toContain('-<p>theirs</p>\n+<p>mine</p>');

    // Both are edits: sent without reading the theme, and the guard of index.html finds the conflict.
    const pushed = await t.cli(['push', mine], { config });
    expect(pushed.code).toBe(3);
    expect(pushed.stdout).toMatch(/conflict\s+index\.html \(changed on the server too\)/);
    expect(pushed.stdout).toMatch(/updated\s+page\.html/);
    expect(pushed.stdout).toContain(
      "run diff to see them; pull --merge merges both sides (templates), pull --force takes the server's version, " +
        'push --force sends yours.',
    );
    const { theme } = await t.theme();
    const body = (name: string) =>
      theme
        .follow('self')
        .then((x) => x.embedded('templates').find((y) => y.properties.file_name === name)!.properties.body);
    expect(await body('index.html')).toBe('<p>theirs</p>\n');
    expect(await body('page.html')).toBe('<p>page</p>\n');

    const forced = await t.cli(['push', mine, '--force'], { config });
    expect(forced.code).toBe(0);
    expect(await body('index.html')).toBe('<p>mine</p>\n');
    expect((await t.cli(['status', mine], { config })).stdout).toContain('Up to date');

    // Deleted there, edited here: the edit's request finds the template gone, a conflict too.
    expect((await t.cli(['pull', theirs], { config })).code).toBe(0);
    await rm(join(theirs, 'page.html'));
    expect((await t.cli(['push', theirs], { config })).code).toBe(0);
    await writeFile(join(mine, 'page.html'), '<p>page, again</p>\n');
    const gone = await t.cli(['push', mine], { config });
    expect(gone.code).toBe(3);
    expect(gone.stdout).toMatch(/conflict\s+page\.html \(deleted on the server\)/);
    // --force: mine wins, the template made again from the folder's copy.
    const recreated = await t.cli(['push', mine, '--force'], { config });
    expect(recreated.code, recreated.stdout).toBe(0);
    expect(recreated.stdout).toMatch(/created\s+page\.html/);
    expect(recreated.stdout).toMatch(/Pushed to .+: 1 created$/m);
    expect(await body('page.html')).toBe('<p>page, again</p>\n');
    expect((await t.cli(['status', mine], { config })).stdout).toContain('Up to date');
  });

  it('pulls the changes made on the server and keeps those made in the folder; --dry-run sends nothing', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const [here, there] = [join(await t.tempDir(), 'here'), join(await t.tempDir(), 'there')];
    for (const dir of [here, there])
      expect((await t.cli(['pull', dir, '--shop', 'northwind'], { config })).code).toBe(0);
    await writeFile(join(there, 'cart.html'), '<p>cart from there</p>\n');
    await rm(join(there, 'partials/newsletter.html'));
    expect((await t.cli(['push', there], { config })).code).toBe(0);
    await writeFile(join(here, 'checkout.html'), '<p>checkout here</p>\n');

    const before = t.requests.length;
    const dry = await t.cli(['push', here, '--dry-run'], { config });
    expect(dry.stdout).toMatch(/updated\s+checkout\.html/);
    expect(dry.stdout).toContain('(dry run: nothing sent)');
    expect(dry.stdout).toContain('2 changes on the server not pulled yet');
    expect(t.writesSince(before)).toEqual([]);

    const pulled = await t.cli(['pull', here], { config });
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/updated\s+cart\.html/);
    expect(pulled.stdout).toMatch(/deleted\s+partials\/newsletter\.html/);
    expect(pulled.stdout).toContain('1 change of this folder not pushed yet');
    expect(await readFile(join(here, 'cart.html'), 'utf8')).toBe('<p>cart from there</p>\n');
    expect(await readFile(join(here, 'checkout.html'), 'utf8')).toBe('<p>checkout here</p>\n');
    await expect(readFile(join(here, 'partials/newsletter.html'))).rejects.toThrow(/ENOENT/);
  });
});
