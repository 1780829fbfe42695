/**
 * Ignore rules through the real bin: `--only` on pull, `.storefrontignore` and `--ignore` on push, `--ignore` and
 * `--only` on publish (watch's are in watch-two-way.test.ts); and `list`, the shop's themes.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

describe('ignore rules', BIN_TESTS, () => {
  it('pull --only brings only the matching files', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'styles-only');
    const pull = await t.cli(['pull', dir, '--shop', 'northwind', '--only', 'styles/*.css,scripts/app.js'], { config });
    expect(pull.code).toBe(0);
    const files = (await readdir(dir, { recursive: true })).filter((f) => !f.startsWith('.') && /\.\w+$/.test(f));
    expect(files.sort()).toEqual(['scripts/app.js', 'styles/print.css', 'styles/theme.css']);
  });

  it('.storefrontignore and --ignore leave files out of push, and publish takes --only and --ignore', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    await writeFile(join(dir, '.storefrontignore'), '# local notes\nscratch.html\nstyles/\n');
    await writeFile(join(dir, 'scratch.html'), '<p>notes</p>\n');
    await writeFile(join(dir, 'styles/theme.css'), 'body { color: red }\n');
    await writeFile(join(dir, 'page.html'), '<p>about, edited</p>\n');
    await writeFile(join(dir, 'index.html'), '<p>index, edited</p>\n');

    let from = t.requests.length;
    const some = await t.cli(['push', dir, '--ignore', 'page.html'], { config });
    expect(some.code).toBe(0);
    expect(some.stdout).toMatch(/^ {2}updated {2}index\.html$/m);
    expect(t.writesSince(from)).toHaveLength(1);

    from = t.requests.length;
    const rest = await t.cli(['push', dir, '--json'], { config });
    const { files } = JSON.parse(rest.stdout) as { files: { path: string; action: string }[] };
    expect(files).toEqual([{ path: 'page.html', kind: 'template', action: 'updated' }]);
    expect(t.writesSince(from)).toHaveLength(1);

    // What .storefrontignore lists is no change.
    const status = await t.cli(['status', dir], { config });
    expect(status.stdout).toMatch(/^Up to date: nothing changed here or on the server since the last pull$/m);

    const planned = async (...args: string[]) => {
      const run = await t.cli(['publish', dir, '--dry-run', '--json', ...args], { config });
      expect(run.code).toBe(0);
      return (JSON.parse(run.stdout) as { files: { path: string }[] }).files.map((f) => f.path);
    };
    expect(await planned()).toEqual(['index.html', 'page.html']);
    expect(await planned('--only', 'page.html')).toEqual(['page.html']);
    expect(await planned('--ignore', 'page.html', '--ignore', 'index.html')).toEqual([]);
  });

  it("list shows the shop's themes with role, id, title, update time and preview", async () => {
    const t = themes();
    const { config } = await t.checkedOut('dev');
    const { theme: production } = await t.theme(false);
    const { theme: development } = await t.theme(true);
    const json = await t.cli(['list', '--shop', 'northwind', '--json'], { config });
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as { shop: { subdomain: string }; themes: Record<string, unknown>[] };
    expect(listed.shop.subdomain).toBe('northwind');
    expect(listed.themes).toEqual(
      [production, development].map((theme) => ({
        role: theme.properties.production ? 'production' : 'development',
        id: theme.properties.id,
        title: theme.properties.title,
        updated_on: theme.properties.updated_on,
        preview: theme.link('svc:theme_preview').expand(),
        href: theme.link('self').expand(),
      })),
    );
    const human = await t.cli(['list', '--shop', 'northwind'], { config });
    expect(human.stdout).toMatch(/^ {2}ROLE +ID +TITLE +UPDATED +PREVIEW$/m);
    expect(human.stdout).toMatch(new RegExp(`^ {2}development +${development.properties.id} +`, 'm'));
    expect(human.stdout).toContain(development.link('svc:theme_preview').expand());
  });
});
