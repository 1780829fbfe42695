/**
 * publish copies between two themes on the server: names the folder's rule refuses (hidden ones, case twins) are
 * files like any other there, published, never taken for files missing from the development theme.
 */
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';
import { filesOf } from './helpers/theme-files.js';

const themes = useThemesServer();

describe('publish and the names the folder refuses', BIN_TESTS, () => {
  it('publishes a hidden-name template and a case twin, deleting nothing of production', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const { theme: development } = await t.theme(true);
    const twinOf = [...filesOf(development).keys()].find((path) => /^partials\/[a-z]+\.html$/.test(path))!;
    const twin = twinOf.replace(/^partials\/(.)/, (_, first: string) => `partials/${first.toUpperCase()}`);
    await development.follow('svc:create_template', { file_name: '.hidden.html', body: '<p>hidden</p>\n' });
    await development.follow('svc:create_template', { file_name: twin, body: '<p>twin</p>\n' });

    // From the folder that made the development theme, which keeps the base both themes started from.
    const published = await t.cli(['publish', dir, '--yes', '--json'], { config });
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(JSON.parse(published.stdout).files).toEqual([
      { path: '.hidden.html', kind: 'template', action: 'created' },
      { path: twin, kind: 'template', action: 'created' },
    ]);
    const [{ theme: production }, { theme: after }] = [await t.theme(), await t.theme(true)];
    expect(filesOf(production)).toEqual(filesOf(after));
    expect(filesOf(production).has(twinOf)).toBe(true);
  });
});
