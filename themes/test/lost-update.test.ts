/**
 * No lost update, whatever the timing: a template changed through the API within the same second as the folder's
 * last push is a conflict for the next push of it (exit 3) and for `watch`, and the server keeps that change. The
 * server's clock stands still within each round, so every write of a round lands in one second (`updated_on` still
 * moves by a millisecond per write); 4 rounds each, through the real bin.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Template } from '@storefront-platform/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/support/manual-clock.js';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

/**
 * The server's clock is manual, so a round replays the same writes in one second whatever the machine's speed: more
 * rounds add no timing, only time (20 took some 100 s of bin runs). Four give push's two guards (the ETag,
 * `updated_on` alone) two rounds each, the second after a conflict, and watch four files in a row.
 */
const ROUNDS = 4;
const themes = useThemesServer({ clock: manualClock(Date.UTC(2026, 2, 1, 9, 0, 0, 250)) });

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A template of northwind's production or development theme as the server has it now. */
async function template(fileName: string, development = false): Promise<Template> {
  const { theme } = await themes().theme(development);
  const summary = theme.embedded('templates').find((x) => x.properties.file_name === fileName);
  if (!summary) throw new Error(`no template ${fileName}`);
  return summary.follow('self');
}

/** A colleague's change of the template through the API, unguarded; the template as it then is. */
async function changeOnServer(fileName: string, body: string, development = false): Promise<Template> {
  return (await template(fileName, development)).follow('svc:update_template', { body });
}

/** The folder's manifest without the ETags it kept, as a folder pushed by an earlier version has it. */
async function forgetEtags(dir: string): Promise<void> {
  const path = join(dir, '.storefront-theme.json');
  const manifest = JSON.parse(await readFile(path, 'utf8')) as { files: Record<string, { etag?: string }> };
  for (const entry of Object.values(manifest.files)) delete entry.etag;
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

const running: ReturnType<typeof startCli>[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});

describe('a change made on the server in the second of the last push', BIN_TESTS, () => {
  it(`is a conflict for push (exit 3), ${ROUNDS} times out of ${ROUNDS}`, { timeout: 300_000 }, async () => {
    const t = themes();
    const config = await t.loggedIn();
    for (let round = 1; round <= ROUNDS; round++) {
      t.clock.advance(1000);
      const dir = join(await t.tempDir(), `round-${round}`);
      expect((await t.cli(['pull', dir, '--shop', 'northwind'], { config })).code).toBe(0);
      await writeFile(join(dir, 'index.html'), `<p>mine ${round}</p>\n`);
      const first = await t.cli(['push', dir], { config });
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const pushed = await template('index.html');
      const theirs = await changeOnServer('index.html', `<p>theirs ${round}</p>\n`);
      expect(seconds(theirs.properties.updated_on)).toBe(seconds(pushed.properties.updated_on));
      // Every other round the folder guards with `updated_on` alone, as one pushed by an earlier version would.
      if (round % 2 === 0) await forgetEtags(dir);
      await writeFile(join(dir, 'index.html'), `<p>mine again ${round}</p>\n`);
      const second = await t.cli(['push', dir], { config });
      expect(second.code, `round ${round}: ${second.stdout}${second.stderr}`).toBe(3);
      expect(second.stdout).toMatch(/conflict\s+index\.html \(changed on the server too\)/);
      expect((await template('index.html')).properties.body).toBe(`<p>theirs ${round}</p>\n`);
    }
  });

  it(`is a conflict for watch, ${ROUNDS} times out of ${ROUNDS}`, { timeout: 300_000 }, async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    // One template per round, pulled into the folder: a conflicted file stays so until merged.
    const { theme: dev } = await t.theme(true);
    const names = Array.from({ length: ROUNDS }, (_, i) => `partials/round-${i + 1}.html`);
    for (const file_name of names) await dev.follow('svc:create_template', { file_name, body: '<p>start</p>\n' });
    expect((await t.cli(['pull', dir], { config })).code).toBe(0);
    const watch = startCli(['watch', dir], { config });
    running.push(watch);
    await watch.waitFor(/^Watching /m);
    for (const [i, name] of names.entries()) {
      t.clock.advance(1000);
      await writeFile(join(dir, name), `<p>mine ${i}</p>\n`);
      await watch.waitFor(new RegExp(`pushed\\s+${name} \\(updated, \\d+ ms\\)`));
      const pushed = await template(name, true);
      expect(pushed.properties.body).toBe(`<p>mine ${i}</p>\n`);
      const theirs = await changeOnServer(name, `<p>theirs ${i}</p>\n`, true);
      expect(seconds(theirs.properties.updated_on)).toBe(seconds(pushed.properties.updated_on));
      await writeFile(join(dir, name), `<p>mine again ${i}</p>\n`);
      await watch.waitFor(new RegExp(`conflict ${name}: changed on the server too`));
      expect((await template(name, true)).properties.body).toBe(`<p>theirs ${i}</p>\n`);
    }
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(watch.stdout().match(/conflict /g)).toHaveLength(ROUNDS);
  });
});

describe('a template unchanged on the server', BIN_TESTS, () => {
  it('goes again on the exact updated_on when only the ETag moved', async () => {
    const t = themes();
    const config = await t.loggedIn();
    t.clock.advance(1000);
    const dir = join(await t.tempDir(), 'etag-moved');
    expect((await t.cli(['pull', dir, '--shop', 'northwind'], { config })).code).toBe(0);
    await writeFile(join(dir, 'page.html'), '<p>first</p>\n');
    expect((await t.cli(['push', dir], { config })).code).toBe(0);
    // As if the server's representation had changed (a link added by an upgrade) while the template did not.
    const path = join(dir, '.storefront-theme.json');
    const manifest = JSON.parse(await readFile(path, 'utf8')) as { files: Record<string, { etag?: string }> };
    expect(manifest.files['page.html']!.etag).toMatch(/^"[0-9a-f]+"$/);
    manifest.files['page.html']!.etag = '"an-older-representation"';
    await writeFile(path, JSON.stringify(manifest));
    await writeFile(join(dir, 'page.html'), '<p>second</p>\n');
    const from = t.requests.length;
    const pushed = await t.cli(['push', dir], { config });
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(pushed.stdout).toMatch(/updated\s+page\.html/);
    expect(t.writesSince(from)).toEqual([
      expect.stringMatching(/^PUT \S+ 412 /),
      expect.stringMatching(/^PUT \S+ 200 /),
    ]);
    expect((await template('page.html')).properties.body).toBe('<p>second</p>\n');
  });
});
