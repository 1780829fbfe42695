/**
 * What `watch` and `dev` say in the terminal beyond each file sent: the files `watch` will not send for their
 * name, `dev`'s check errors (one line each, as the page shows them, and that none is left), and `dev`'s exit code
 * on Ctrl-C, which is watch's whatever its first pull skipped.
 */
import { appendFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN_TESTS, type CliProcess, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

const running: CliProcess[] = [];
afterEach(async () => {
  for (const run of running.splice(0)) {
    run.child.kill('SIGINT');
    await run.exited;
  }
});

/** How many lines of `text` match `pattern`. */
const count = (text: string, pattern: RegExp) => text.split('\n').filter((line) => pattern.test(line)).length;

describe('watch and dev in the terminal', BIN_TESTS, () => {
  it('watch says once per save why it does not send a file whose name the API refuses', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    // An interval of a tenth: many looks at the server while the test runs, none of which may say it again.
    const watch = startCli(['watch', dir, '--interval', '0.1'], { config });
    running.push(watch);
    await watch.waitFor(/^Watching /m);
    const from = t.requests.length;
    await writeFile(join(dir, 'bad name.html'), '<p>spaced</p>\n');
    await mkdir(join(dir, 'a/b'), { recursive: true });
    await writeFile(join(dir, 'a/b/c.html'), '<p>deep</p>\n');
    const spaced = / ignored {2}bad name\.html: a name the API refuses: only letters, digits, .+: not sent$/m;
    await watch.waitFor(spaced);
    await watch.waitFor(/ ignored {2}a\/b\/c\.html: a name the API refuses: more than one folder level .+: not sent$/m);
    // A save after them, and a few looks at the server: their turns have passed, and were said once.
    await appendFile(join(dir, 'layout.html'), '<!-- saved after them -->\n');
    await watch.waitFor(/pushed\s+layout\.html \(updated/);
    await t.waitForRequest(/^GET \/v1\/themes\/\d+ 304 /, t.requests.length);
    expect(count(watch.stdout(), / ignored {2}bad name\.html:/)).toBe(1);
    expect(count(watch.stdout(), / ignored {2}a\/b\/c\.html:/)).toBe(1);
    expect(t.writesSince(from)).toEqual([expect.stringMatching(/^PUT \/v1\/themes\/\d+\/templates\/\d+ 200 /)]);

    // Saved again: said again. Deleted: nothing to say, nothing left unsent.
    await appendFile(join(dir, 'bad name.html'), '<p>again</p>\n');
    await expect.poll(() => count(watch.stdout(), / ignored {2}bad name\.html:/), { timeout: 15_000 }).toBe(2);
    await rm(join(dir, 'bad name.html'));
    await rm(join(dir, 'a'), { recursive: true });
    await appendFile(join(dir, 'layout.html'), '<!-- saved after the deletions -->\n');
    await expect.poll(() => count(watch.stdout(), /pushed\s+layout\.html/), { timeout: 15_000 }).toBe(2);
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(count(watch.stdout(), / ignored {2}bad name\.html:/)).toBe(2);
    expect(count(watch.stdout(), / ignored {2}a\/b\/c\.html:/)).toBe(1);
    expect(watch.stdout()).toMatch(/^Stopped watching$/m);
  });

  it("dev prints check's errors when they change, one line each, and says when none is left", async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const dev = startCli(['dev', dir, '--port', '0', '--interval', '0'], { config });
    running.push(dev);
    await dev.waitFor(/^Watching /m);

    await writeFile(join(dir, '404.html'), '<div><span>oops</div>\n');
    await dev.waitFor(/pushed\s+404\.html/);
    await dev.waitFor(/ error {4}404\.html:1:\d+ .*<span>.* \(html\)$/m);
    await appendFile(join(dir, 'styles/theme.css'), '\n.unclosed { color: red;\n');
    await dev.waitFor(/ error {4}styles\/theme\.css:\d+:\d+ .+ \(css\)$/m);
    // Both said again with the second: the list as it stands, as the page shows it.
    expect(count(dev.stdout(), / error {4}404\.html:/)).toBe(2);

    // A save that changes nothing of the errors says none of them again.
    await appendFile(join(dir, 'layout.html'), '<!-- no new error -->\n');
    await dev.waitFor(/pushed\s+layout\.html/);
    await writeFile(join(dir, '404.html'), '<div><span>mended</span></div>\n');
    // The list changed: what is left is said, and only that.
    await expect.poll(() => count(dev.stdout(), / error {4}styles\/theme\.css:/), { timeout: 15_000 }).toBe(2);
    expect(count(dev.stdout(), / error {4}404\.html:/)).toBe(2);

    await writeFile(join(dir, 'styles/theme.css'), 'body { color: black; }\n');
    await dev.waitFor(/ fixed {4}no check errors left$/m);
    dev.child.kill('SIGINT');
    expect(await dev.exited).toBe(0);
  });

  it('dev stopped by Ctrl-C exits 0 as watch does, though its first pull skipped a file', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    // A file of the folder replaced by a link, changed on the server: the pull skips it (pull exits 1 then).
    await rm(join(dir, '404.html'));
    await symlink(join(dir, 'layout.html'), join(dir, '404.html'));
    const { theme } = await t.theme(true);
    const template = theme.embedded('templates').find((x) => x.properties.file_name === '404.html')!;
    await template.follow('svc:update_template', { body: '<p>changed on the server</p>\n' });

    const dev = startCli(['dev', dir, '--port', '0', '--interval', '0'], { config });
    running.push(dev);
    await dev.waitFor(/^ {2}skipped {2}404\.html \(symbolic link\)$/m);
    await dev.waitFor(/^Watching /m);
    dev.child.kill('SIGINT');
    expect(await dev.exited).toBe(0);
    expect(dev.stdout()).toMatch(/^Stopped watching$/m);
  });
});
