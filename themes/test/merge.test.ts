/**
 * `pull --merge` through the real bin: a template changed on both sides is merged three ways against the base the
 * folder kept; changes to different lines come out combined (`merged`), changes to the same line between conflict
 * markers (exit 3), which push then refuses to send.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

describe('pull --merge', BIN_TESTS, () => {
  it('applies a clean merge, writes an overlapping one with conflict markers (exit 3), and push refuses the markers', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    const { theme } = await t.theme(false);
    const template = (name: string) => theme.embedded('templates').find((x) => x.properties.file_name === name)!;
    const page = template('page.html').properties.body;
    const notFound = template('404.html').properties.body;

    // Mine: the heading of page.html, and the heading of 404.html.
    await writeFile(join(dir, 'page.html'), page.replace(/<h1>[^<]*<\/h1>/, '<h1>About us, mine</h1>'));
    await writeFile(join(dir, '404.html'), notFound.replace('<h1>Page not found</h1>', '<h1>Lost? (mine)</h1>'));
    // Mine too: checkout.html, where theirs makes the same change and one more; cart.html, theirs leave alone.
    const checkout = template('checkout.html').properties.body;
    await writeFile(join(dir, 'checkout.html'), `${checkout}<!-- both -->\n`);
    await writeFile(join(dir, 'cart.html'), `${template('cart.html').properties.body}<!-- mine -->\n`);
    // Theirs: the last paragraph of page.html, and the same heading of 404.html.
    t.clock.advance(1000);
    await template('checkout.html').follow('svc:update_template', {
      body: `<!-- theirs -->\n${checkout}<!-- both -->\n`,
    });
    const theirPage = page.replace('thirty days', 'sixty days');
    await template('page.html').follow('svc:update_template', { body: theirPage });
    await template('404.html').follow('svc:update_template', {
      body: notFound.replace('<h1>Page not found</h1>', '<h1>Nothing here (theirs)</h1>'),
    });

    const pull = await t.cli(['pull', dir, '--merge'], { config });
    expect(pull.code).toBe(3);
    expect(pull.stdout).toMatch(/^ {2}merged {3}page\.html$/m);
    expect(pull.stdout).toMatch(
      /^ {2}conflict 404\.html \(merged with conflict markers \(1 region\): resolve, then push\)$/m,
    );
    expect(pull.stdout).toMatch(/^ {2}merged {3}checkout\.html$/m);
    // What is left to push, as status counts it: the merges that keep lines of mine (markers too) and cart.html;
    // checkout.html is the server's version now, nothing of mine left in it to push.
    expect(pull.stdout).toContain('3 changes of this folder not pushed yet (see status)');
    const status = await t.cli(['status', dir], { config });
    expect(status.stdout).toContain('3 changes: 3 to push, 0 to pull, 0 conflicts');
    const merged = await readFile(join(dir, 'page.html'), 'utf8');
    expect(merged).toBe(theirPage.replace(/<h1>[^<]*<\/h1>/, '<h1>About us, mine</h1>'));
    expect(await readFile(join(dir, '404.html'), 'utf8')).toBe(
      notFound.replace(
        '  <h1>Page not found</h1>\n',
        '<<<<<<< folder\n  <h1>Lost? (mine)</h1>\n=======\n  <h1>Nothing here (theirs)</h1>\n>>>>>>> server\n',
      ),
    );

    // The merge is the folder's change now: push sends page.html, and not the file holding markers.
    const push = await t.cli(['push', dir], { config });
    expect(push.code).toBe(1);
    expect(push.stdout).toMatch(/^ {2}failed {3}404\.html \(holds conflict markers .+: resolve them first\)$/m);
    expect(push.stdout).toMatch(/^ {2}updated {2}page\.html$/m);
    expect(push.stdout).toMatch(/^ {2}updated {2}cart\.html$/m);
    const { theme: after } = await t.theme(false);
    const body = (name: string) =>
      after.embedded('templates').find((x) => x.properties.file_name === name)!.properties.body;
    expect(body('page.html')).toBe(merged);
    expect(body('404.html')).toContain('Nothing here (theirs)');
  });
});
