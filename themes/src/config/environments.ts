/**
 * `storefront-themes.toml`: the environments of a theme folder, each a shop to push, publish, check or pull to,
 * with the server, the theme, the files left out, and the stored login to use, named (never a secret: the file is
 * committed with the theme). One may be the folder's default. The format is in docs/themes-cli.md.
 */
import { join } from 'node:path';
import picomatch from 'picomatch';
import { parse } from 'smol-toml';
import { originOf } from '../auth/connection.js';
import { UsageError } from '../errors.js';
import { readInside } from '../theme/confined.js';
import { LOGIN_NAME } from './store.js';

/** The environments file, in the theme folder. */
export const ENVIRONMENTS_FILE = 'storefront-themes.toml';

/** Larger than any environments file of 1000 shops. */
const MAX_ENVIRONMENTS_BYTES = 1024 * 1024;

/** One environment: a shop's theme, reached with a stored login. */
export interface Environment {
  name: string;
  /** The stored login to use (`login --login NAME`); `undefined`: the unnamed one. */
  login?: string;
  /** The server's origin, which the login must be for; `undefined`: the login's. */
  server?: string;
  /** Subdomain or id of the shop. */
  shop: string;
  /** `production`, `development` (the default) or a theme's id. */
  theme: string;
  /** Globs of files left alone, beside `.storefrontignore` (as `--ignore`). */
  ignore: string[];
  /** Globs of the only files moved (as `--only`). */
  only: string[];
}

/** What the file holds. */
export interface Environments {
  /** Its path. */
  file: string;
  /** The name of the folder's default environment. */
  default?: string;
  environments: Map<string, Environment>;
}

/**
 * Key names that hold a secret. Refused wherever they are: a token or a client secret in a file committed with the
 * theme is a leak, and the stored logins keep them (mode 0600) already.
 */
const SECRET_KEY = /secret|passw|token|api[-_]?key|credential|private|bearer|auth/i;
const ENVIRONMENT_KEYS = new Set(['login', 'server', 'shop', 'theme', 'ignore', 'only']);
/** An environment's name: also a file name (its manifest, `.storefront/environments/NAME.json`). */
const ENVIRONMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The `{file}: {where}: {what}` error of a wrong file. */
function wrong(file: string, where: string, what: string): UsageError {
  return new UsageError(`${file}: ${where}: ${what}`);
}

function refuseSecrets(file: string, table: Table, where: string): void {
  for (const [key, value] of Object.entries(table)) {
    const at = where ? `${where}.${key}` : key;
    if (SECRET_KEY.test(key)) {
      throw wrong(
        file,
        at,
        'a secret is never kept in this file (it is committed with the theme): store it with storefront-themes login --login NAME and name that login here (login = "NAME")',
      );
    }
    if (isTable(value)) refuseSecrets(file, value, at);
  }
}

function globs(file: string, at: string, value: unknown): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((glob) => typeof glob === 'string' && glob !== '')) {
    throw wrong(file, at, 'a glob or an array of globs');
  }
  return list as string[];
}

function text(file: string, at: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw wrong(file, at, 'a non-empty string');
  return value;
}

function serverOf(file: string, at: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (URL.canParse(value) && (new URL(value).username || new URL(value).password)) {
    throw wrong(
      file,
      at,
      'a user or password in the address is a secret: name a stored login instead (login = "NAME")',
    );
  }
  try {
    return originOf(value);
  } catch (error) {
    throw wrong(file, at, (error as Error).message);
  }
}

function environmentOf(file: string, name: string, table: Table): Environment {
  const where = `environments.${name}`;
  if (!ENVIRONMENT_NAME.test(name)) throw wrong(file, where, 'a name of letters, digits, ".", "_" and "-"');
  for (const key of Object.keys(table)) {
    if (!ENVIRONMENT_KEYS.has(key)) {
      throw wrong(file, `${where}.${key}`, `unknown key (an environment has ${[...ENVIRONMENT_KEYS].join(', ')})`);
    }
  }
  const shop = text(file, `${where}.shop`, table.shop);
  if (!shop) throw wrong(file, where, 'no shop (shop = "SUBDOMAIN")');
  const login = text(file, `${where}.login`, table.login);
  if (login !== undefined && !LOGIN_NAME.test(login)) throw wrong(file, `${where}.login`, 'not a login name');
  const theme = text(file, `${where}.theme`, table.theme) ?? 'development';
  return {
    name,
    ...(login === undefined ? {} : { login }),
    ...(table.server === undefined
      ? {}
      : { server: serverOf(file, `${where}.server`, text(file, `${where}.server`, table.server)) }),
    shop,
    theme,
    ignore: globs(file, `${where}.ignore`, table.ignore),
    only: globs(file, `${where}.only`, table.only),
  };
}

/** The environments of `text`, the contents of `file`; a usage error naming the place of anything wrong. */
export function parseEnvironments(file: string, source: string): Environments {
  let document: Table;
  try {
    document = parse(source) as Table;
  } catch (error) {
    throw new UsageError(`${file}: not TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  refuseSecrets(file, document, '');
  for (const key of Object.keys(document)) {
    if (key !== 'default' && key !== 'environments') {
      throw wrong(file, key, 'unknown key (the file has default and [environments.NAME] tables)');
    }
  }
  const tables = document.environments ?? {};
  if (!isTable(tables)) throw wrong(file, 'environments', 'a table of environments ([environments.NAME])');
  const environments = new Map<string, Environment>();
  for (const [name, table] of Object.entries(tables)) {
    if (!isTable(table)) throw wrong(file, `environments.${name}`, 'a table ([environments.NAME])');
    environments.set(name, environmentOf(file, name, table));
  }
  const fallback = text(file, 'default', document.default);
  if (fallback !== undefined && !environments.has(fallback)) {
    throw wrong(file, 'default', `no environment ${JSON.stringify(fallback)}`);
  }
  return { file, ...(fallback === undefined ? {} : { default: fallback }), environments };
}

/** The folder's environments, `undefined` when it has no environments file. */
export async function readEnvironments(dir: string): Promise<Environments | undefined> {
  const file = join(dir, ENVIRONMENTS_FILE);
  // Read as the folder's theme files are, never through a symbolic link (a clone's link to a file elsewhere would
  // put its first line in an error message) and never past a size no such file reaches.
  const bytes = await readInside(dir, ENVIRONMENTS_FILE, MAX_ENVIRONMENTS_BYTES).catch(
    (error: NodeJS.ErrnoException) => {
      // No folder: the command given a file or a missing folder says so itself.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    },
  );
  return bytes === undefined ? undefined : parseEnvironments(file, bytes.toString('utf8'));
}

/**
 * The environments `wanted` names, each a name or a glob of names (`shop-*`), in the file's order; a usage error
 * for a name or glob that names none.
 */
export function selectEnvironments(environments: Environments, wanted: readonly string[]): Environment[] {
  const names = [...environments.environments.keys()];
  const chosen = new Set<string>();
  for (const pattern of wanted) {
    const match = picomatch(pattern, { dot: true });
    const matches = names.filter((name) => match(name));
    if (!matches.length) {
      const known = names.join(', ') || 'none';
      throw new UsageError(`no environment matches ${JSON.stringify(pattern)} in ${environments.file} (${known})`);
    }
    for (const name of matches) chosen.add(name);
  }
  return names.filter((name) => chosen.has(name)).map((name) => environments.environments.get(name)!);
}
