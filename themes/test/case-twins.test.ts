/**
 * Case twins, names equal but for case (page.html, Page.html): one file on a disk that ignores case (macOS, Windows),
 * and pull refuses the second. So push and watch never create one on the server, whose copy the folder could then
 * neither see nor delete, and watch never removes a file of the folder because the server lists a twin of it.
 * A rename but for case (page.html → Page.html) is not a twin: the old name goes first, then the new one.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN_TESTS, type CliProcess, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

const running: CliProcess[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The names of the development theme's templates and assets, as the server holds them. */
async function namesOnServer(t: ReturnType<typeof themes>): Promise<string[]> {
  const { theme } = await t.theme(true);
  return [...theme.embedded('templates'), ...theme.embedded('assets')].map((file) => file.properties.file_name);
}

describe('case twins', BIN_TESTS, () => {
  it('push skips a new file equal but for case to one of the theme or the folder, and sends the rest', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    await writeFile(join(dir, 'Page.html'), '<p>my unique work</p>\n');
    await writeFile(join(dir, 'assets/images/Spinner.gif'), await readFile(join(dir, 'assets/images/spinner.gif')));
    // Twins of each other, neither on the server.
    await writeFile(join(dir, 'faq.html'), '<p>faq</p>\n');
    await writeFile(join(dir, 'FAQ.html'), '<p>FAQ</p>\n');
    await writeFile(join(dir, 'about.html'), '<p>about</p>\n');

    const dry = await t.cli(['push', dir, '--dry-run'], { config });
    expect(dry.stdout).toMatch(/^ {2}skipped {2}Page\.html \(unsafe name: the same as page\.html but for case\)$/m);
    expect(dry.stdout).toMatch(/^ {2}created {2}about\.html$/m);

    const from = t.requests.length;
    const pushed = await t.cli(['push', dir], { config });
    expect(pushed.code).toBe(1);
    expect(pushed.stdout).toMatch(/^ {2}skipped {2}Page\.html \(unsafe name: the same as page\.html but for case\)$/m);
    expect(pushed.stdout).toMatch(
      /^ {2}skipped {2}assets\/images\/Spinner\.gif \(unsafe name: the same as assets\/images\/spinner\.gif but for case\)$/m,
    );
    expect(pushed.stdout).toMatch(/^ {2}skipped {2}FAQ\.html \(unsafe name: the same as faq\.html but for case\)$/m);
    expect(pushed.stdout).toMatch(/^ {2}skipped {2}faq\.html \(unsafe name: the same as FAQ\.html but for case\)$/m);
    expect(pushed.stdout).toMatch(/^ {2}created {2}about\.html$/m);
    expect(t.writesSince(from)).toHaveLength(1);
    const names = await namesOnServer(t);
    expect(names).toContain('about.html');
    for (const twin of ['Page.html', 'images/Spinner.gif', 'faq.html', 'FAQ.html']) expect(names).not.toContain(twin);
    // Nothing was recorded of them: the folder keeps them as its own, and a pull keeps them too.
    const pulled = await t.cli(['pull', dir], { config });
    expect(pulled.code).toBe(0);
    expect(await readFile(join(dir, 'Page.html'), 'utf8')).toBe('<p>my unique work</p>\n');
  });

  it('push takes a rename but for case: the old name deleted, the new one created', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    await rename(join(dir, '404.html'), join(dir, '404.HTML'));
    const pushed = await t.cli(['push', dir], { config });
    expect(pushed.code).toBe(0);
    expect(pushed.stdout).toMatch(/^ {2}created {2}404\.HTML$/m);
    expect(pushed.stdout).toMatch(/^ {2}deleted {2}404\.html$/m);
    const names = await namesOnServer(t);
    expect(names).toContain('404.HTML');
    expect(names).not.toContain('404.html');
  });

  it('watch neither sends a twin nor removes it from the folder, and takes a rename but for case', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const watch = startCli(['watch', dir, '--interval', '0.2'], { config });
    running.push(watch);
    await watch.waitFor(/^Watching /m);
    const { theme: before } = await t.theme(true);
    const themePath = new URL(before.link('self').expand()).pathname;

    await writeFile(join(dir, 'Page.html'), '<p>my unique work</p>\n');
    await watch.waitFor(/ignored {2}Page\.html: unsafe name: the same as page\.html but for case/);
    // A look at the server after it: the folder's file stays.
    await t.waitForRequest(new RegExp(`^GET ${themePath} 304 `), t.requests.length);
    expect(await readFile(join(dir, 'Page.html'), 'utf8')).toBe('<p>my unique work</p>\n');
    expect(await namesOnServer(t)).not.toContain('Page.html');

    await rename(join(dir, 'product.html'), join(dir, 'Product.html'));
    await watch.waitFor(/pushed\s+Product\.html \(created/);
    await watch.waitFor(/pushed\s+product\.html \(deleted/);
    // Two looks at the server after it, the first seeing the rename (a 200): nothing is brought back or removed.
    await t.waitForRequest(new RegExp(`^GET ${themePath} 304 `), t.requests.length);
    await t.waitForRequest(new RegExp(`^GET ${themePath} 304 `), t.requests.length);
    expect(await exists(join(dir, 'Product.html'))).toBe(true);
    const names = await namesOnServer(t);
    expect(names).toContain('Product.html');
    expect(names).not.toContain('product.html');
    expect(watch.stdout()).not.toMatch(/pulled|on the server\)/);
  });
});
