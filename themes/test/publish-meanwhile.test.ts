/**
 * An edit landing in production after the publish's plan was read (while the person reads it, or while it writes)
 * is not overwritten: the plan's writes meet it as conflicts, a template updated, one created by that name, a
 * template and an asset deleted; the rest of the plan is published.
 */
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { applyPublish, planPublish, readPublishThemes } from '../src/theme/publish.js';
import { baseTexts, readPublishBase } from '../src/theme/publish-base.js';
import { BIN_TESTS } from './helpers/cli.js';
import { DEMO, useThemesServer } from './helpers/server.js';
import { filesOf } from './helpers/theme-files.js';

const themes = useThemesServer();
const svg = (text: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><title>${text}</title></svg>`).toString('base64');

describe('publish and an edit made in production meanwhile', BIN_TESTS, () => {
  it('meets it as a conflict, never overwrites it, and publishes the rest', async () => {
    const t = themes();
    const { dir } = await t.checkedOut('dev');
    const client = createClient({
      baseUrl: t.server.baseUrl,
      auth: clientCredentials({ authUrl: t.server.origin, ...DEMO, scope: 'admin' }),
      retry: false,
    });
    const [production, development] = [(await t.theme()).theme, (await t.theme(true)).theme];
    const named = (theme: typeof production, name: string) =>
      theme.embedded('templates').find((x) => x.properties.file_name === name)!;
    const names = production
      .embedded('templates')
      .map((x) => x.properties.file_name)
      .filter((name) => name !== 'layout.html')
      .sort();
    const [updated, deleted, untouched] = [names[0]!, names[1]!, names[2]!];
    // An asset in both themes alike.
    for (const theme of [production, development]) {
      await theme.follow('svc:create_theme_asset', { file_name: 'images/gone.svg', data: svg('one') });
    }
    for (const name of [updated, untouched]) {
      await named(development, name).follow('svc:update_template', { body: `<p>${name} from development</p>\n` });
    }
    await named(development, deleted).follow('svc:delete_template');
    await development.follow('svc:create_template', { file_name: 'fresh.html', body: '<p>development</p>\n' });

    const themesNow = await readPublishThemes(client, 'northwind');
    // The base the folder recorded, with the asset added alike to both sides (as a publish would record it);
    // then the development theme deletes it.
    const base = (await readPublishBase(dir, themesNow.development, themesNow.production))!;
    const md5 = themesNow.files.production.get('assets/images/gone.svg')!.md5;
    base.set('assets/images/gone.svg', { kind: 'asset', md5 });
    const doomed = themesNow.files.development.get('assets/images/gone.svg')!;
    if (doomed.kind === 'asset') await doomed.entity.follow('svc:delete_theme_asset');
    const plan = await planPublish(await readPublishThemes(client, 'northwind'), {
      base,
      text: baseTexts(dir),
    });
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.map((c) => `${c.action} ${c.path}`).sort()).toEqual(
      [
        `created fresh.html`,
        `deleted ${deleted}`,
        `updated ${updated}`,
        `updated ${untouched}`,
        'deleted assets/images/gone.svg',
      ].sort(),
    );

    // The merchant, after the plan was read.
    const now = (await t.theme()).theme;
    await named(now, updated).follow('svc:update_template', { body: '<p>merchant</p>\n' });
    await named(now, deleted).follow('svc:update_template', { body: '<p>merchant keeps it</p>\n' });
    await now.follow('svc:create_template', { file_name: 'fresh.html', body: '<p>merchant</p>\n' });
    await now.follow('svc:create_theme_asset', { file_name: 'images/gone.svg', data: svg('merchant') });

    const files = await applyPublish(plan);
    expect(Object.fromEntries(files.map((f) => [f.path, f.action]))).toEqual({
      'assets/images/gone.svg': 'conflict',
      'fresh.html': 'conflict',
      [deleted]: 'conflict',
      [updated]: 'conflict',
      [untouched]: 'updated',
    });
    const after = (await t.theme()).theme;
    expect(named(after, updated).properties.body).toBe('<p>merchant</p>\n');
    expect(named(after, deleted).properties.body).toBe('<p>merchant keeps it</p>\n');
    expect(named(after, 'fresh.html').properties.body).toBe('<p>merchant</p>\n');
    expect(named(after, untouched).properties.body).toBe(`<p>${untouched} from development</p>\n`);
    expect(filesOf(after).has('assets/images/gone.svg')).toBe(true);
  });
});
