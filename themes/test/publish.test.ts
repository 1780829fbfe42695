/** dev → edit → push → publish through the real bin: production ends up with the development theme's files. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { md5 } from '../src/theme/digest.js';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';
import { filesOf } from './helpers/theme-files.js';

const themes = useThemesServer();

describe('dev and publish', BIN_TESTS, () => {
  it('creates the development theme once, and publishes it to production after showing what changes', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'dev');
    const dev = await t.cli(['dev', '--no-serve', dir, '--shop', 'northwind'], { config });
    expect(dev.code).toBe(0);
    expect(dev.stdout).toMatch(
      /^Created the development theme "Northwind Classic \(development\)" of Northwind Outfitters$/m,
    );
    const [, preview] = /^Preview: (http\S+)$/m.exec(dev.stdout)!;
    const again = await t.cli(['dev', '--no-serve', dir], { config });
    expect(again.stdout).toMatch(/^Using the development theme /m);
    expect(again.stdout).toContain(`Preview: ${preview}`);
    expect(again.stdout).toContain('already up to date');

    await writeFile(join(dir, 'layout.html'), '<!doctype html>\n<title>Spring</title>\n<body></body>\n');
    await rm(join(dir, 'partials/newsletter.html'));
    expect((await t.cli(['push', dir], { config })).code).toBe(0);
    expect(await (await fetch(preview!)).text()).toContain('<title>Spring</title>');

    // Without a terminal and without --yes, nothing is published.
    const unconfirmed = await t.cli(['publish', dir], { config });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stdout).toMatch(
      /will change:\n {2}updated\s+layout\.html\n {2}deleted\s+partials\/newsletter\.html\n$/,
    );
    expect(unconfirmed.stderr).toBe(
      'storefront-themes publish: publishing needs a confirmation: run it in a terminal, or pass --yes\n',
    );
    const dry = await t.cli(['publish', dir, '--dry-run'], { config });
    expect(dry.stdout).toContain('Would publish: 1 updated, 1 deleted (dry run: nothing changed)');
    let { theme: production } = await t.theme();
    expect(production.embedded('templates').some((x) => x.properties.file_name === 'partials/newsletter.html')).toBe(
      true,
    );

    const published = await t.cli(['publish', dir, '--yes', '--json'], { config });
    expect(published.code).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({
      ok: true,
      theme: { production: true },
      from: { production: false },
      files: [
        { path: 'layout.html', action: 'updated' },
        { path: 'partials/newsletter.html', action: 'deleted' },
      ],
    });
    ({ theme: production } = await t.theme());
    const { theme: development } = await t.theme(true);
    expect(filesOf(production)).toEqual(filesOf(development));
    expect(filesOf(production).get('layout.html')).toBe(md5(await readFile(join(dir, 'layout.html'))));

    const nothing = await t.cli(['publish', '--shop', 'northwind', '--yes'], { config });
    expect(nothing.stdout).toMatch(/^Nothing to publish: /);
  });
});
