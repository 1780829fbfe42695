/**
 * Environments, through the real bin against two real reference servers: one folder pushed and published to
 * several shops at once (northwind and copper-kettle on one server, northwind on the other through a named
 * login), one line per shop, a failing environment reported while the others succeed, the wrong-shop guard (no
 * terminal and no --yes: refused, nothing written), globs, and a secret in the file refused.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Theme } from '@storefront-platform/sdk';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../test/support/requirement.js';
import { BIN_TESTS } from './helpers/cli.js';
import { appEnv, DEMO, useThemesServer } from './helpers/server.js';
import { startInTerminal, TERMINAL } from './helpers/terminal.js';

const one = useThemesServer();
const two = useThemesServer();

let config: string;
let dir: string;

const LAYOUT = '<!doctype html>\n<title>Agency spring</title>\n<body>{{ content_for_layout }}</body>\n';

/** The production theme of `shop` on `server`, read through the SDK. */
async function production(server: typeof one, shop: string): Promise<Theme> {
  const { origin, baseUrl } = server().server;
  const sdk = createClient({
    baseUrl,
    auth: clientCredentials({ authUrl: origin, ...DEMO, scope: 'admin' }),
    retry: false,
  });
  const summary = (await sdk.root()).embedded('shops').find((s) => s.properties.subdomain === shop)!;
  return (await summary.follow('self')).follow('svc:theme');
}

const layoutOf = async (server: typeof one, shop: string) =>
  (await production(server, shop)).embedded('templates').find((t) => t.properties.file_name === 'layout.html')
    ?.properties.body;

const toml = (lines: string[]) => `${lines.join('\n')}\n`;

function environmentsFile(extra: string[] = []) {
  return toml([
    'default = "north"',
    '',
    '[environments.north]',
    'shop = "northwind"',
    'theme = "production"',
    '',
    '[environments.copper]',
    'shop = "copper-kettle"',
    'theme = "production"',
    'ignore = ["notes.html"]',
    '',
    '[environments.far-north]',
    'login = "two"',
    `server = "${two().server.origin}"`,
    'shop = "northwind"',
    'theme = "production"',
    '',
    '[environments.nowhere]',
    'shop = "nowhere"',
    'theme = "production"',
    ...extra,
  ]);
}

const cli = (args: string[]) => one().cli(args, { config });

beforeAll(async () => {
  config = await one().loggedIn();
  const named = await one().cli(['login', '--client-credentials', '--login', 'two'], {
    config,
    env: appEnv(two().server),
  });
  if (named.code !== 0) throw new Error(named.stderr);
  dir = join(await one().tempDir(), 'theme');
  const pulled = await cli(['pull', dir, '--shop', 'northwind']);
  if (pulled.code !== 0) throw new Error(pulled.stderr);
  await writeFile(join(dir, 'storefront-themes.toml'), environmentsFile());
}, 60_000);

describe('environments', BIN_TESTS, () => {
  it('refuses a production push without a terminal and without --yes, naming the shops, writing nothing', async () => {
    await writeFile(join(dir, 'layout.html'), LAYOUT);
    const before = one().requests.length;
    const run = await cli(['push', dir, '--env', 'north', '--env', 'copper']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('push for these shops:\n  north: Northwind Outfitters (northwind), production theme');
    expect(run.stderr).toContain('  copper: Copper Kettle Kitchen (copper-kettle), production theme');
    expect(run.stderr).toMatch(
      /push to the production theme of Northwind Outfitters, Copper Kettle Kitchen needs a confirmation: run it in a terminal, or pass --yes\n$/,
    );
    expect(one().writesSince(before)).toEqual([]);
  });

  it('pushes to two shops at once with --yes, one line each', async () => {
    const run = await cli(['push', dir, '--env', 'north', '--env', 'copper', '--yes', '--force']);
    expect(run.stderr).toContain('push for these shops:');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(run.stdout).toMatch(/^ {2}ok {5}north {3}northwind {2}Pushed to "[^"]+" of Northwind Outfitters: /m);
    expect(run.stdout).toMatch(/^ {2}ok {5}copper {2}copper-kettle {2}Pushed to "[^"]+" of Copper Kettle Kitchen: /m);
    expect(await layoutOf(one, 'northwind')).toBe(LAYOUT);
    expect(await layoutOf(one, 'copper-kettle')).toBe(LAYOUT);
    // Each environment keeps its own manifest: the default the folder's, the others theirs.
    const again = await cli(['push', dir, '--env', 'north', '--env', 'copper', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/north .*Nothing to push/);
    expect(again.stdout).toMatch(/copper .*Nothing to push/);
  });

  it('status and diff --env: each environment against its own manifest and shop, one block each', async () => {
    const page = (await production(one, 'copper-kettle'))
      .embedded('templates')
      .find((t) => t.properties.file_name === 'page.html')!;
    await page.follow('svc:update_template', { body: '<p>copper only</p>\n' });
    const run = await cli(['status', dir, '--env', 'north', '--env', 'copper']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'status for these shops:\n  north: Northwind Outfitters (northwind), production theme',
    );
    expect(run.stdout).toMatch(
      /^ {2}ok {5}north {3}northwind\n {4}"[^"]+" of Northwind Outfitters, pulled into .+\n {4}Up to date: /m,
    );
    expect(run.stdout).toMatch(
      /^ {2}ok {5}copper {2}copper-kettle\n {4}"[^"]+" of Copper Kettle Kitchen, pulled into .+\n {6}changed on the server +page\.html\n {4}1 change: 0 to push, 1 to pull, 0 conflicts$/m,
    );
    const unpushed = await cli(['status', dir, '--env', 'far-north']);
    expect(unpushed.code).toBe(2);
    expect(unpushed.stderr).toMatch(/environment "far-north" has no manifest in .+ yet .*: push --env far-north first/);
    // Without --env, the file's default, as push.
    const byDefault = await cli(['status', dir]);
    expect(byDefault.stderr).toContain('status for this shop:\n  north: Northwind Outfitters (northwind)');
    expect(byDefault.stdout).toMatch(/^Up to date: /m);
    const json = await cli(['status', dir, '--env', 'copper', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      environment: 'copper',
      exitCode: 0,
      shop: { subdomain: 'copper-kettle' },
      changes: [{ path: 'page.html' }],
    });
    // The same file changed here too: a conflict for copper only, and the worst exit code.
    const mine = await readFile(join(dir, 'page.html'), 'utf8');
    await writeFile(join(dir, 'page.html'), '<p>folder</p>\n');
    try {
      const diff = await cli(['diff', dir, '--env', 'copper', '--env', 'north']);
      expect(diff.code).toBe(3);
      expect(diff.stdout).toMatch(/^ {2}failed copper {2}copper-kettle\n/m);
      expect(diff.stdout).toContain('    --- server/page.html\n    +++ folder/page.html');
      expect(diff.stdout).toContain('    -<p>copper only</p>\n    +<p>folder</p>');
      expect(diff.stdout).toMatch(
        /^ {2}ok {5}north {3}northwind\n(?: {4}.*\n| *\n)* {4}1 change: 1 to push, 0 to pull/m,
      );
      expect(diff.stderr).toMatch(/1 of 2 environments did not succeed: copper \(exit 3\)/);
    } finally {
      await writeFile(join(dir, 'page.html'), mine);
    }
  });

  it('reports a failing environment while the others succeed, in JSON, and exits non-zero naming it', async () => {
    const run = await cli(['push', dir, '--env', 'far-*', '--env', 'nowhere', '--yes', '--force', '--json']);
    expect(run.code).not.toBe(0);
    const objects = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(objects).toHaveLength(2);
    const byName = Object.fromEntries(objects.map((o) => [o.environment, o]));
    expect(byName['far-north']).toMatchObject({ exitCode: 0, ok: true, shop: { subdomain: 'northwind' } });
    expect(byName.nowhere).toMatchObject({ exitCode: 2, ok: false, shop: null });
    expect(byName.nowhere.error.message).toMatch(/no shop "nowhere"/);
    expect(run.stderr).toMatch(/1 of 2 environments did not succeed: nowhere \(exit 2\)/);
    // The second server got the folder's layout through the login named in the file.
    expect(await layoutOf(two, 'northwind')).toBe(LAYOUT);
  });

  it('publishes in two shops at once, after the same guard', async () => {
    const folders: Record<string, string> = {};
    for (const shop of ['northwind', 'copper-kettle']) {
      folders[shop] = join(await one().tempDir(), shop);
      const made = await cli(['dev', '--no-serve', folders[shop]!, '--shop', shop]);
      expect(made.code, made.stderr).toBe(0);
    }
    const refused = await cli(['publish', dir, '--env', 'north', '--env', 'copper']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/publish to the production theme of .* needs a confirmation/);
    const run = await cli(['publish', dir, '--env', 'north', '--env', 'copper', '--yes']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}ok {5}north {3}northwind {2}Nothing to publish/m);
    expect(run.stdout).toMatch(/^ {2}ok {5}copper {2}copper-kettle {2}Nothing to publish/m);
    // A folder dev made holds the development theme: its default environment's shop is the same, so publish goes
    // on there (with the folder's base), one environment printing the command's own lines.
    await writeFile(join(folders.northwind!, 'storefront-themes.toml'), environmentsFile());
    const fromDev = await cli(['publish', folders.northwind!, '--yes']);
    expect(fromDev.code, fromDev.stderr).toBe(0);
    expect(fromDev.stderr).toContain(
      'publish for this shop:\n  north: Northwind Outfitters (northwind), production theme',
    );
    expect(fromDev.stdout).toMatch(/^Nothing to publish: /m);
  });

  it('checks the folder as each environment a glob names gets it, and refuses a glob that names none', async () => {
    await writeFile(join(dir, 'notes.html'), '<div>\n');
    const run = await cli(['check', dir, '--env', 'c*', '--env', 'north']);
    // copper ignores notes.html; north reads it and finds the open <div>.
    expect(run.stdout).toMatch(/^ {2}ok {5}copper {2}- {2}No problems in \d+ files$/m);
    expect(run.stdout).toMatch(/^ {2}failed north {3}- {2}1 error/m);
    expect(run.code).toBe(1);
    const none = await cli(['check', dir, '--env', 'shop-*']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /no environment matches "shop-\*" in .*storefront-themes\.toml \(north, copper, far-north, nowhere\)/,
    );
  });

  it('never reuses the shop the folder holds for a default environment that names another', async () => {
    const other = join(await one().tempDir(), 'other');
    expect((await cli(['pull', other, '--shop', 'northwind'])).code).toBe(0);
    await writeFile(
      join(other, 'storefront-themes.toml'),
      environmentsFile().replace('default = "north"', 'default = "copper"'),
    );
    const before = one().requests.length;
    const run = await cli(['push', other, '--yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /the folder holds "[^"]+" of Northwind Outfitters \(northwind\), not the theme of environment "copper" \(copper-kettle\): pull --env copper first/,
    );
    expect(one().writesSince(before)).toEqual([]);
  });

  it('refuses a secret written in the file, and --env without a file', async () => {
    const secretive = join(await one().tempDir(), 'secretive');
    expect((await cli(['pull', secretive, '--shop', 'northwind'])).code).toBe(0);
    await writeFile(join(secretive, 'storefront-themes.toml'), environmentsFile(['client_secret = "s3cret"']));
    const run = await cli(['push', secretive, '--env', 'north']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /storefront-themes\.toml: environments\.nowhere\.client_secret: a secret is never kept in this file .*login --login NAME/,
    );
    await writeFile(
      join(secretive, 'storefront-themes.toml'),
      toml(['[environments.x]', 'shop = "northwind"', 'server = "https://me:pw@example.com"']),
    );
    const inUrl = await cli(['push', secretive, '--env', 'x']);
    expect(inUrl.code).toBe(2);
    expect(inUrl.stderr).toMatch(/environments\.x\.server: a user or password in the address is a secret/);
    const bare = join(await one().tempDir(), 'bare');
    expect((await cli(['pull', bare, '--shop', 'northwind'])).code).toBe(0);
    const noFile = await cli(['push', bare, '--env', 'north']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/--env needs a storefront-themes\.toml in /);
  });

  const noTerminal = skipWithout(TERMINAL, 'The wrong-shop guard in a terminal');
  it.skipIf(noTerminal)(
    'in a terminal: asks once for every production shop; no writes nothing, yes pushes',
    async () => {
      const body = `${LAYOUT}<!-- asked -->\n`;
      await writeFile(join(dir, 'layout.html'), body);
      const args = ['push', dir, '--env', 'north', '--env', 'copper'];
      const before = one().requests.length;
      const declined = startInTerminal(args, { config });
      await declined.waitFor(
        /Push to the production theme of Northwind Outfitters, Copper Kettle Kitchen\? \[y\/N\] $/,
      );
      declined.type('n\r');
      expect(await declined.exited).toBe(0);
      expect(declined.text()).toContain('Nothing done: not confirmed');
      expect(one().writesSince(before)).toEqual([]);
      const accepted = startInTerminal(args, { config });
      await accepted.waitFor(/\[y\/N\] $/);
      accepted.type('y\r');
      expect(await accepted.exited, accepted.text()).toBe(0);
      expect(await layoutOf(one, 'northwind')).toBe(body);
      expect(await layoutOf(one, 'copper-kettle')).toBe(body);
    },
  );

  it('pulls one environment, and refuses several', async () => {
    const several = await cli(['pull', dir, '--env', 'north', '--env', 'copper']);
    expect(several.code).toBe(2);
    const run = await cli(['pull', dir, '--env', 'copper']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('copper: Copper Kettle Kitchen (copper-kettle)');
  });
});
