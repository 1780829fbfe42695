/**
 * `watch` through the real bin, counting requests at the server: saves of a file settle before it is sent (an
 * editor's save is often several writes, or a copy renamed over the file), so a burst of writes is one request
 * carrying the last of them, and each file saved is one request of its own.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

const running: ReturnType<typeof startCli>[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});

/** `watch` running on a fresh folder of the development theme, with the template ids of the folder's manifest. */
async function watching(t: ReturnType<typeof themes>, options: string[] = []) {
  const { config, dir } = await t.checkedOut('dev');
  const manifest = JSON.parse(await readFile(join(dir, '.storefront-theme.json'), 'utf8'));
  const watch = startCli(['watch', dir, ...options], { config });
  running.push(watch);
  await watch.waitFor(/^Watching /m);
  const names = new Map(
    Object.entries(manifest.files as Record<string, { id: number | string }>).map(([p, f]) => [String(f.id), p]),
  );
  /** The theme file writes the server logged from `from` on, as `PUT layout.html` (a file by name). */
  const writesSince = (from: number) =>
    t.writesSince(from).flatMap((line) => {
      const match = /^(\S+) \/v1\/themes\/\d+\/(templates|assets)(?:\/(\d+))? /.exec(line);
      if (!match) return [];
      const [, method, kind, id] = match;
      return [`${method} ${id ? (names.get(id) ?? id) : kind}`];
    });
  return { dir, watch, writesSince };
}

/** The body of a template of the development theme on the server. */
async function devBody(t: ReturnType<typeof themes>, file: string): Promise<string | undefined> {
  const { theme } = await t.theme(true);
  return theme.embedded('templates').find((x) => x.properties.file_name === file)?.properties.body;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watch debounces saves', BIN_TESTS, () => {
  it('five writes of a file in quick succession are one request, carrying the last', async () => {
    const t = themes();
    // A quiet time far above the gaps between the writes, so that a busy machine cannot split the burst.
    const { dir, watch, writesSince } = await watching(t, ['--debounce', '1000']);
    const from = t.requests.length;
    const layout = join(dir, 'layout.html');
    const original = await readFile(layout, 'utf8');
    // Each write 70 ms after the last: apart enough for the watcher to see each one (it folds changes of a file
    // closer than 50 ms), within the quiet time that settles them.
    for (let i = 1; i <= 5; i++) {
      if (i > 1) await pause(70);
      await writeFile(layout, `${original}<!-- write ${i} of 5 -->\n`);
    }
    await watch.waitFor(/pushed\s+layout\.html \(updated/);
    // A save of another file afterwards: once it is sent, anything still due for layout.html would have been too
    // (files go one at a time, in the order their saves settled).
    await writeFile(join(dir, 'page.html'), '<p>after the burst</p>\n');
    await watch.waitFor(/pushed\s+page\.html \(updated/);
    expect(writesSince(from)).toEqual(['PUT layout.html', 'PUT page.html']);
    expect(watch.stdout().match(/pushed\s+layout\.html/g)).toHaveLength(1);
    expect(await devBody(t, 'layout.html')).toBe(`${original}<!-- write 5 of 5 -->\n`);
  });

  it("an editor's atomic save (a copy renamed over the file) is one update, not a deletion and a creation", async () => {
    const t = themes();
    const { dir, watch, writesSince } = await watching(t);
    const from = t.requests.length;
    // Hidden, as editors name their copies: the watch leaves such files alone.
    await writeFile(join(dir, '.page.html.swp'), '<p>saved atomically</p>\n');
    await rename(join(dir, '.page.html.swp'), join(dir, 'page.html'));
    await watch.waitFor(/pushed\s+page\.html \(updated/);
    await writeFile(join(dir, 'index.html'), '<p>after the atomic save</p>\n');
    await watch.waitFor(/pushed\s+index\.html \(updated/);
    expect(writesSince(from)).toEqual(['PUT page.html', 'PUT index.html']);
    expect(await devBody(t, 'page.html')).toBe('<p>saved atomically</p>\n');
    expect(watch.stdout()).not.toMatch(/\.swp/);
  });

  it('refuses a --debounce that is not a number of milliseconds up to a minute', async () => {
    const t = themes();
    const config = await t.loggedIn();
    for (const value of ['soon', '-1', '1.5', '', '60001']) {
      const result = await t.cli(['watch', await t.tempDir(), `--debounce=${value}`], { config });
      expect(result.code, value).toBe(2);
      expect(result.stderr).toContain(`--debounce must be a whole number of milliseconds up to 60000, got "${value}"`);
    }
  });

  it('files saved together are one request each, each with its own last write', async () => {
    const t = themes();
    const { dir, watch, writesSince } = await watching(t);
    const from = t.requests.length;
    const files = ['404.html', 'cart.html', 'styles/print.css'];
    for (const round of [1, 2]) {
      for (const file of files) await writeFile(join(dir, file), `/* ${file}, round ${round} */\n`);
    }
    for (const file of files) await watch.waitFor(new RegExp(`pushed\\s+${file.replace('.', '\\.')} \\(updated`));
    await writeFile(join(dir, 'page.html'), '<p>after them</p>\n');
    await watch.waitFor(/pushed\s+page\.html \(updated/);
    expect(writesSince(from).sort()).toEqual([...files.map((file) => `PUT ${file}`), 'PUT page.html'].sort());
    expect(writesSince(from).at(-1)).toBe('PUT page.html');
    for (const file of files) expect(await devBody(t, file)).toBe(`/* ${file}, round 2 */\n`);
  });
});
