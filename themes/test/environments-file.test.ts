/** storefront-themes.toml read on its own: the format, what it refuses (a secret above all), globs of names. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnvironments, readEnvironments, selectEnvironments } from '../src/config/environments.js';

const FILE = 'storefront-themes.toml';
const parse = (lines: string[]) => parseEnvironments(FILE, `${lines.join('\n')}\n`);

describe('the environments file', () => {
  it('reads each environment with its defaults, and the default', () => {
    const file = parse([
      'default = "north"',
      '[environments.north]',
      'shop = "northwind"',
      '[environments.shop-a]',
      'login = "agency"',
      'server = "https://api.example.com/"',
      'shop = "a"',
      'theme = "17"',
      'ignore = "notes.html"',
      'only = ["*.css", "assets/**"]',
    ]);
    expect(file.default).toBe('north');
    expect(file.environments.get('north')).toEqual({
      name: 'north',
      shop: 'northwind',
      theme: 'development',
      ignore: [],
      only: [],
    });
    expect(file.environments.get('shop-a')).toEqual({
      name: 'shop-a',
      login: 'agency',
      server: 'https://api.example.com',
      shop: 'a',
      theme: '17',
      ignore: ['notes.html'],
      only: ['*.css', 'assets/**'],
    });
  });

  it.each([
    [['[environments.a]', 'shop = "a"', 'client_secret = "x"'], 'environments.a.client_secret: a secret is never kept'],
    [['token = "x"'], 'token: a secret is never kept'],
    [['[environments.a]', 'shop = "a"', '[environments.a.extra]', 'password = "x"'], 'environments.a.extra.password'],
    [['[environments.a]', 'shop = "a"', 'API_KEY = "x"'], 'environments.a.API_KEY: a secret'],
    [['[environments.a]', 'shop = "a"', 'server = "https://u:p@x.example"'], 'a user or password in the address'],
  ])('refuses a secret written in it (%j)', (lines, message) => {
    expect(() => parse(lines)).toThrow(message);
  });

  it.each([
    [['[environments.a]', 'shop = "a"', 'colour = "red"'], `${FILE}: environments.a.colour: unknown key`],
    [['[environments.a]', 'theme = "production"'], 'environments.a: no shop'],
    [['default = "b"', '[environments.a]', 'shop = "a"'], 'default: no environment "b"'],
    [['[environments."../x"]', 'shop = "a"'], 'a name of letters'],
    [['[environments.a]', 'shop = "a"', 'server = "https://x.example/v1"'], "is not the server's origin"],
    [['[environments.a]', 'shop = "a"', 'login = "../other"'], 'environments.a.login: not a login name'],
    [['[environments.a]', 'shop = "a"', 'ignore = [1]'], 'environments.a.ignore: a glob or an array of globs'],
    [['shops = 1'], 'shops: unknown key'],
    [['[environments.a', 'shop = "a"'], `${FILE}: not TOML`],
  ])('refuses a wrong file with the place named (%j)', (lines, message) => {
    expect(() => parse(lines)).toThrow(message);
  });

  it('selects by names and globs, in the order of the file, each once', () => {
    const file = parse([
      '[environments.shop-b]',
      'shop = "b"',
      '[environments.north]',
      'shop = "n"',
      '[environments.shop-a]',
      'shop = "a"',
    ]);
    const names = (wanted: string[]) => selectEnvironments(file, wanted).map((e) => e.name);
    expect(names(['shop-*'])).toEqual(['shop-b', 'shop-a']);
    expect(names(['north', 'shop-a', '*'])).toEqual(['shop-b', 'north', 'shop-a']);
    expect(() => names(['south'])).toThrow(
      'no environment matches "south" in storefront-themes.toml (shop-b, north, shop-a)',
    );
  });

  it('is read in the folder only, never through a symbolic link', async () => {
    const temp = await mkdtemp(join(tmpdir(), 'environments-file-'));
    try {
      const secret = join(temp, 'elsewhere.txt');
      await writeFile(secret, 'not = toml = at all\n');
      const dir = join(temp, 'theme');
      expect(await readEnvironments(dir)).toBeUndefined();
      expect(await readEnvironments(secret)).toBeUndefined();
      await mkdir(dir);
      await symlink(secret, join(dir, 'storefront-themes.toml'));
      await expect(readEnvironments(dir)).rejects.toThrow(/symbolic link/);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });
});
