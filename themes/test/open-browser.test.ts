/**
 * `dev --open` and the browser login open an address in the browser through the `open` package. A script stands
 * in for the browser (see helpers/browser.ts): no real browser starts, and the address it got is checked.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approve, browserEnv, fakeBrowser } from './helpers/browser.js';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { appEnv, DEMO, useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

describe('opening the browser', BIN_TESTS, () => {
  it('dev --open opens the preview it prints, once; dev without it opens nothing', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'dev');

    const untouched = await fakeBrowser(await t.tempDir());
    const quiet = await t.cli(['dev', '--no-serve', dir, '--shop', 'northwind'], { config, env: untouched.env });
    expect(quiet.code).toBe(0);

    const browser = await fakeBrowser(await t.tempDir());
    const dev = await t.cli(['dev', '--no-serve', dir, '--shop', 'northwind', '--open'], { config, env: browser.env });
    expect(dev.stderr).toBe('');
    expect(dev.code).toBe(0);
    const [, preview] = dev.stdout.match(/^Preview: (http\S+)$/m)!;
    expect(dev.stdout.match(/^Preview: /gm)).toHaveLength(1);
    expect(preview).toBe((await t.theme(true)).theme.link('svc:theme_preview').expand());
    expect(await browser.waitForOpened(1)).toEqual([preview]);
    // The run without --open, a whole run earlier, would have been recorded by now.
    expect(await untouched.opened()).toEqual([]);
    // The address works without a login, as the browser loads it.
    const page = await fetch(preview!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('login opens the sign-in page it prints, and completes when the browser comes back', async () => {
    const t = themes();
    const config = await t.tempDir();
    const browser = await fakeBrowser(await t.tempDir());
    const login = startCli(['login'], { config, env: { ...appEnv(t.server), ...browser.env } });
    const [, printed] = await login.waitFor(/^ {2}(http\S+\/oauth\/authorize\?\S+)$/m, 'stderr');
    const [opened] = await browser.waitForOpened(1);
    expect(opened).toBe(printed);

    // The person signs in on the page the browser shows, which sends the browser back to the bin.
    const callback = await approve(opened!, 'demo', DEMO.password);
    expect(await (await fetch(callback)).text()).toContain('You can close this tab');
    expect(await login.exited).toBe(0);
    expect(login.stdout()).toBe(`Logged in to ${t.server.origin} as Dana Demo, through the browser\n`);
    expect(login.stderr()).not.toContain('Could not open a browser');
    expect(await browser.opened()).toEqual([printed]);
  });

  it('login says so when no browser could be opened, and still completes through the printed address', async () => {
    const t = themes();
    const config = await t.tempDir();
    const login = startCli(['login'], { config, env: { ...appEnv(t.server), ...browserEnv('/bin/false') } });
    const [, printed] = await login.waitFor(/^ {2}(http\S+\/oauth\/authorize\?\S+)$/m, 'stderr');
    await login.waitFor(
      /Could not open a browser \(.*xdg-open exited with status \d+\): open the address above/,
      'stderr',
    );
    const callback = await approve(printed!, 'demo', DEMO.password);
    expect(await (await fetch(callback)).text()).toContain('You can close this tab');
    expect(await login.exited).toBe(0);
  });
});
