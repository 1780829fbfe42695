/**
 * `watch` the other way, through the real bin: an unchanged theme costs one conditional GET answered 304 per
 * interval and nothing else; a change made on the server is written into the folder by the next look; a file
 * changed on both sides is reported as a conflict, left alone, and listed when the watch stops; a file the
 * ignore rules leave out is not brought.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN_TESTS, type CliProcess, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();
const INTERVAL_S = 0.3;

const running: CliProcess[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});

describe('watch, two-way', BIN_TESTS, () => {
  it('polls with one 304 per interval, brings a server change, reports a two-sided one', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    // A long quiet time: saves here wait, so that the server can change the same file meanwhile.
    const args = ['watch', dir, '--interval', String(INTERVAL_S), '--debounce', '60000', '--ignore', 'index.html'];
    const watch = startCli(args, { config });
    running.push(watch);
    await watch.waitFor(/^Watching /m);
    const { theme: dev } = await t.theme(true);
    const themePath = new URL(dev.link('self').expand()).pathname;

    // Quiet: nothing but conditional GETs of the theme, each answered 304, one an interval (the watch's own
    // pace: however slow the machine, no faster than that).
    const unchanged = new RegExp(`^GET ${themePath} 304 `);
    await t.waitForRequest(unchanged, t.requests.length);
    const from = t.requests.length;
    const started = performance.now();
    for (let look = 0; look < 3; look++) await t.waitForRequest(unchanged, t.requests.length);
    const quiet = t.requests.slice(from);
    const intervals = (performance.now() - started) / (INTERVAL_S * 1000);
    expect(quiet.length).toBeGreaterThanOrEqual(3);
    expect(quiet.length).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
    for (const line of quiet) expect(line).toMatch(new RegExp(`^GET ${themePath} 304 `));

    // A colleague edits page.html (and index.html, which this watch ignores) on the server.
    t.clock.advance(1000);
    const template = (name: string) => dev.embedded('templates').find((x) => x.properties.file_name === name)!;
    const indexBefore = await readFile(join(dir, 'index.html'), 'utf8');
    let from2 = t.requests.length;
    await template('index.html').follow('svc:update_template', { body: '<p>index, theirs</p>\n' });
    // Seen (a 200), then unchanged again (a 304): the look that follows is the page's alone.
    await t.waitForRequest(new RegExp(`^GET ${themePath} 200 `), from2);
    from2 = t.requests.length;
    await t.waitForRequest(new RegExp(`^GET ${themePath} 304 `), from2);
    const changed = t.requests.length;
    await template('page.html').follow('svc:update_template', { body: '<p>page, theirs</p>\n' });
    await watch.waitFor(/pulled\s+page\.html \(updated on the server\)/);
    expect(await readFile(join(dir, 'page.html'), 'utf8')).toBe('<p>page, theirs</p>\n');
    // Brought by the first look after the change: one read of the theme, with its body (200).
    const looks = t.requests.slice(changed).filter((line) => line.startsWith(`GET ${themePath} `));
    expect(looks.filter((line) => / 200 /.test(line))).toHaveLength(1);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toBe(indexBefore);
    expect(watch.stdout()).not.toMatch(/index\.html/);

    // Changed on both sides: reported, neither side overwritten.
    await writeFile(join(dir, 'product.html'), '<p>product, mine</p>\n');
    t.clock.advance(1000);
    await template('product.html').follow('svc:update_template', { body: '<p>product, theirs</p>\n' });
    await watch.waitFor(/conflict product\.html: changed on the server too: the folder's copy is kept/);
    expect(await readFile(join(dir, 'product.html'), 'utf8')).toBe('<p>product, mine</p>\n');
    const { theme: after } = await t.theme(true);
    const body = after.embedded('templates').find((x) => x.properties.file_name === 'product.html')!.properties.body;
    expect(body).toBe('<p>product, theirs</p>\n');

    running.splice(running.indexOf(watch), 1);
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(watch.stdout()).toMatch(
      /^Stopped watching; not pushed: product\.html \(run push\); conflicts: product\.html \(pull --merge, or push --force\)$/m,
    );
  });
});
