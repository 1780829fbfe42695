/**
 * A development theme left with 159 of production's 614 files (a copy cut short, made here by deleting files
 * through the API): neither publish --yes nor dev uses it without --force, so that production and the folder
 * keep their files; and concurrent publishes, one deleting what the other already did, both end well.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { applyPublish, planPublish, readPublishThemes } from '../src/theme/publish.js';
import { BIN_TESTS } from './helpers/cli.js';
import { DEMO, useThemesServer } from './helpers/server.js';
import { addTemplates, deleteTemplates, filesOf } from './helpers/theme-files.js';

const themes = useThemesServer();

/** The theme files of a folder (its templates and assets, not the manifest). */
async function folderFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && !e.name.startsWith('.')).length;
}

describe('a development theme that lacks most of production', BIN_TESTS, () => {
  it('is not published, nor pulled over a folder, without --force', { timeout: 180_000 }, async () => {
    const t = themes();
    let { theme: production } = await t.theme();
    await addTemplates(production, 'pages/p', 614 - filesOf(production).size);
    ({ theme: production } = await t.theme());
    expect(filesOf(production).size).toBe(614);
    const fromProduction = await t.checkedOut('pull');
    const { config, dir } = await t.checkedOut('dev');
    await deleteTemplates((await t.theme(true)).theme, 'pages/', 455);
    expect(filesOf((await t.theme(true)).theme).size).toBe(159);

    const refused = await t.cli(['publish', dir, '--yes'], { config });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'storefront-themes publish: the development theme lacks 455 of the 614 files of production (more than a quarter): its copy may have been cut short: pass --force to publish it all the same\n',
    );
    expect(filesOf((await t.theme()).theme).size).toBe(614);
    const json = await t.cli(['publish', dir, '--yes', '--json'], { config });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { exitCode: 2 } });

    // dev over a folder of production's files would delete from it every file the development theme lacks.
    const before = await folderFiles(fromProduction.dir);
    const dev = await t.cli(['dev', '--no-serve', fromProduction.dir], { config: fromProduction.config });
    expect(dev.code).toBe(2);
    expect(dev.stderr).toContain('lacks 455 of the 614 files of production');
    expect(dev.stderr).toContain('pass --force to use it all the same');
    expect(await folderFiles(fromProduction.dir)).toBe(before);

    const forced = await t.cli(['publish', dir, '--yes', '--force'], { config });
    expect(forced.stderr).toContain('Warning: the development theme lacks 455 of the 614 files');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(': 455 deleted');
    expect(filesOf((await t.theme()).theme)).toEqual(filesOf((await t.theme(true)).theme));
  });

  it('takes a file another publish deleted already as deleted, not failed', async () => {
    const t = themes();
    const client = createClient({
      baseUrl: t.server.baseUrl,
      auth: clientCredentials({ authUrl: t.server.origin, ...DEMO, scope: 'admin' }),
    });
    const added = await addTemplates((await t.theme()).theme, 'extra/x', 11);
    // Both plans are read before either run writes, as two publishes started together do.
    // No base is recorded here: every difference is a conflict, which --ours settles for the development theme.
    const plan = async () => planPublish(await readPublishThemes(client, 'northwind'), { favour: 'ours' });
    const [first, second] = [await plan(), await plan()];
    expect(second.changes.map((c) => [c.path, c.action])).toEqual(added.map((path) => [path, 'deleted']));
    expect((await applyPublish(first)).every((file) => file.action === 'deleted')).toBe(true);
    const files = await applyPublish(second);
    expect(files.map((file) => [file.path, file.action])).toEqual(added.map((path) => [path, 'deleted']));
  });
});

describe('push after a push cut short', BIN_TESTS, () => {
  it('counts only what changed this time', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    const names = ['index.html', 'product.html', 'cart.html', '404.html'];
    for (const name of names) await writeFile(join(dir, name), `<p>${name} edited</p>\n`);
    // What a push killed halfway leaves: two of the edits on the server, none recorded in the folder's manifest.
    const { theme } = await t.theme();
    for (const template of theme
      .embedded('templates')
      .filter((x) => names.slice(0, 2).includes(x.properties.file_name))) {
      await template.follow('svc:update_template', { body: `<p>${template.properties.file_name} edited</p>\n` });
    }
    const push = await t.cli(['push', dir, '--json'], { config });
    expect(push.code).toBe(0);
    const actions = Object.fromEntries(
      JSON.parse(push.stdout).files.map((f: { path: string; action: string }) => [f.path, f.action]),
    );
    expect(actions).toEqual({
      'index.html': 'unchanged',
      'product.html': 'unchanged',
      'cart.html': 'updated',
      '404.html': 'updated',
    });
    const human = await t.cli(['status', dir], { config });
    expect(human.stdout).toMatch(/up to date/i);
  });
});
