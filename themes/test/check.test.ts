/**
 * `check` through the real bin on a folder of the demo theme: clean as pulled, then each kind of problem put in
 * and found, with its place; and `publish` refusing a development theme that does not pass (`--no-check` goes on).
 */
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckProblem } from '../src/theme/check.js';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

describe('check', BIN_TESTS, () => {
  it('passes the demo theme and finds each kind of problem, with its place, in text and JSON', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    const clean = await t.cli(['check', dir], { config });
    expect(clean.stdout).toMatch(/^No problems in \d+ files$/m);
    expect(clean.code).toBe(0);

    await writeFile(join(dir, 'styles/broken.css'), '.a { color: red;\n.b { color: blue }\n');
    await writeFile(join(dir, 'page.html'), '<section>\n  <div><p>About <em>us</p>\n</section>\n</article>\n');
    await writeFile(
      join(dir, 'index.html'),
      '<img src="images/nope.png" alt="">\n{{ include "x" }}<a href="partials/gone.html">x</a> <a href="https://x.test/a.png">ok</a>\n',
    );
    await writeFile(join(dir, 'styles/bg.css'), 'body { background: url("../images/missing.png") }\n');
    await writeFile(join(dir, 'big.html'), `<p>${'x'.repeat(64 * 1024)}</p>\n`);
    await writeFile(join(dir, 'has space.html'), '<p>hi</p>\n');
    await writeFile(join(dir, 'merged.html'), '<p>\n<<<<<<< folder\na\n=======\nb\n>>>>>>> server\n</p>\n');
    await mkdir(join(dir, 'assets/images'), { recursive: true });
    await writeFile(join(dir, 'assets/images/huge.png'), Buffer.alloc(1024 * 1024 + 1));
    await rm(join(dir, 'layout.html'));
    // Left out by the ignore file: never read.
    await writeFile(join(dir, 'draft.html'), '<div>\n');
    await writeFile(join(dir, '.storefrontignore'), 'draft.html\n');

    const json = await t.cli(['check', dir, '--json'], { config });
    expect(json.code).toBe(1);
    const { ok, problems } = JSON.parse(json.stdout) as { ok: boolean; problems: CheckProblem[] };
    expect(ok).toBe(false);
    const found = (path: string, rule: string) => problems.filter((p) => p.path === path && p.rule === rule);
    expect(found('styles/broken.css', 'css')).toEqual([expect.objectContaining({ line: 1, severity: 'error' })]);
    expect(found('page.html', 'html').map((p) => [p.line, p.column, p.message])).toEqual([
      [2, 3, '<div> opened at 2:3 is not closed before </section>'],
      [2, 17, '<em> opened at 2:17 is not closed before </p>'],
      [4, 1, '</article> closes no open <article>'],
    ]);
    expect(found('index.html', 'reference').map((p) => [p.line, p.message])).toEqual([
      [1, 'references images/nope.png: no such file in the theme'],
      [2, 'references partials/gone.html: no such template in the theme'],
    ]);
    expect(found('styles/bg.css', 'reference')).toHaveLength(1);
    expect(found('big.html', 'size')[0]!.message).toMatch(/65544 bytes: the API allows 65536/);
    expect(found('assets/images/huge.png', 'size')).toHaveLength(1);
    expect(found('has space.html', 'name')).toHaveLength(1);
    expect(found('merged.html', 'conflict-markers')).toEqual([expect.objectContaining({ line: 2 })]);
    expect(found('layout.html', 'layout')).toHaveLength(1);
    expect(problems.filter((p) => p.path === 'draft.html')).toEqual([]);

    const human = await t.cli(['check', dir], { config });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^ {2}error {3}page\.html:4:1 {2}<\/article> closes no open <article> \(html\)$/m);
    expect(human.stdout).toMatch(/^\d+ errors, 0 warnings in \d+ files$/m);
  });

  it("finds each asset whose bytes are not of its extension's kind, in the words of the server's 422", async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    // A JPEG's start (SOI, then a JFIF APP0 segment) under a .png name, as a photo saved with the wrong extension.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    await writeFile(join(dir, 'assets/images/photo.png'), jpeg);
    await writeFile(join(dir, 'assets/images/empty.gif'), '');
    await copyFile(join(dir, 'assets/images/logo.png'), join(dir, 'assets/images/copy.png'));

    const json = await t.cli(['check', dir, '--json'], { config });
    expect(json.code).toBe(1);
    const { problems } = JSON.parse(json.stdout) as { problems: CheckProblem[] };
    expect(problems).toEqual([
      {
        path: 'assets/images/empty.gif',
        severity: 'error',
        rule: 'content',
        message: 'must not be empty',
      },
      {
        path: 'assets/images/photo.png',
        severity: 'error',
        rule: 'content',
        message: 'is not a .png file (image/png): no PNG signature',
      },
    ]);
    const human = await t.cli(['check', dir], { config });
    expect(human.stdout).toMatch(
      /^ {2}error {3}assets\/images\/photo\.png {2}is not a \.png file \(image\/png\): no PNG signature \(content\)$/m,
    );

    // The same words as the server's refusal of the push.
    const push = await t.cli(['push', dir], { config });
    expect(push.code).toBe(1);
    expect(push.stdout + push.stderr).toContain('is not a .png file (image/png): no PNG signature');
  });

  it('publish checks the development theme first and stops on an error; --no-check publishes all the same', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    await writeFile(join(dir, 'styles/theme.css'), 'body { color: red\n');
    expect((await t.cli(['push', dir], { config })).code).toBe(0);
    const from = t.requests.length;
    const refused = await t.cli(['publish', dir, '--yes'], { config });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /^ {2}error {3}styles\/theme\.css:1:1 {2}CSS does not parse: Unclosed block \(css\)$/m,
    );
    expect(refused.stderr).toBe(
      'storefront-themes publish: the development theme has errors (see check): fix them, or pass --no-check\n',
    );
    expect(t.writesSince(from)).toEqual([]);
    const forced = await t.cli(['publish', dir, '--yes', '--no-check'], { config });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^Published to .+: 1 updated$/m);
  });
});
