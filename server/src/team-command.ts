/**
 * `storefront-server apps …` and `storefront-server users …`: a team's own apps and users, added, listed and
 * removed in a running server through its control API (`--control`), so that a team without code gives every
 * developer an app (client id, secret, redirect URIs) and a login of their own. Through the server, not the data:
 * the server holds a JSON data directory's lock and the data in memory, so only it can change them while it runs;
 * on PostgreSQL every worker sees the change at its next request. Exit codes: 0 once done, 1 when it could not be
 * (no server, no control API, a wrong token, an unknown id, a login taken), 2 for bad flags or input the server
 * refused as such (a redirect URI that is not absolute, a short password).
 */
import { readCommandArgs } from './command-args.js';
import { connectSandbox, type SandboxClient } from './sandbox/client.js';
import { CONTROL_PATH } from './sandbox/operations.js';
import { SandboxError } from './sandbox/sandbox-error.js';
import type { TeamApp, TeamUser } from './sandbox/team-types.js';

const CONNECTION = `Connection (a server started with --control):
  --url URL             the server (http://127.0.0.1:4000) or its control API
                        (…/_sandbox); also STOREFRONT_CONTROL_URL
                        (default http://127.0.0.1:4000)
  --control-token T     the control token the server printed; better in
                        STOREFRONT_CONTROL_TOKEN, out of the shell's history
  --json                print the answer as JSON
  --help                show this help`;

const USAGE = {
  apps: `Usage: storefront-server apps add --name NAME [--kind web|native|browser]
                              [--redirect-uri URI ...] [--owner LOGIN]
       storefront-server apps list
       storefront-server apps remove ID|CLIENT_ID

Registers an OAuth app of your own in a running server: its client id, and its
client secret, shown once. Removing it revokes its tokens and codes.

  --name NAME          what the consent page calls it
  --kind KIND          web (default): a server that keeps its secret, redirect
                       URIs matched exactly; native: an app or command line on
                       your machine, whose http://127.0.0.1/… redirect takes any
                       port (PKCE required); browser: a page keeping no secret
  --redirect-uri URI   where the code flow may send the user back (repeatable)
  --owner LOGIN        the user its client-credentials tokens act as (default:
                       the demo user)

${CONNECTION}
`,
  users: `Usage: storefront-server users add --login LOGIN [--password PASSWORD]
                               [--name NAME] [--shop SHOP ...]
       storefront-server users list
       storefront-server users remove ID|LOGIN

Adds a user who signs in (password grant, the authorization page) in a running
server. Removing one revokes their tokens and codes; a user who still owns an
app or a shop is not removed.

  --login LOGIN        the login, without spaces
  --password PASSWORD  8 characters at least; stored hashed. Better in
                       STOREFRONT_USER_PASSWORD, out of the shell's history
  --name NAME          the name shown (default: the login)
  --shop SHOP          a shop (id, subdomain or name) the user is to
                       administer (repeatable): a shop has one administrator,
                       its owner, so the user takes it over

${CONNECTION}
`,
} as const;

/** The kinds of data this command handles. */
export type TeamCommand = keyof typeof USAGE;

const OPTIONS = {
  url: { type: 'string' },
  'control-token': { type: 'string' },
  json: { type: 'boolean' },
  name: { type: 'string' },
  kind: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  owner: { type: 'string' },
  login: { type: 'string' },
  password: { type: 'string' },
  shop: { type: 'string', multiple: true },
} as const;

/** Which flags each action of each command takes, besides the connection's. */
const FLAGS: Record<TeamCommand, Record<string, readonly (keyof typeof OPTIONS)[]>> = {
  apps: { add: ['name', 'kind', 'redirect-uri', 'owner'], list: [], remove: [] },
  users: { add: ['login', 'password', 'name', 'shop'], list: [], remove: [] },
};
const CONNECTION_FLAGS = new Set(['url', 'control-token', 'json', 'help']);

/** A flag or argument that is wrong: exit code 2. */
class UsageError extends Error {}

/** The control API's URL from `--url`: a server's origin gets `/_sandbox` added. */
function controlUrl(given: string): string {
  const url = URL.canParse(given) ? new URL(given) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new UsageError(`--url must be the server's http(s) address, got "${given}"`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith(CONTROL_PATH) ? path : `${path}${CONTROL_PATH}`}`;
}

/**
 * Whether a control API answers at `url` to `token`; else why not, with the way out. Asked first so that "no
 * such app" is never confused with "no control API here".
 */
async function reach(url: string, token: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new Error(
      `no server answers at ${url} (${cause}): start one with storefront-server --control, or give --url`,
    );
  }
  await response.body?.cancel();
  if (response.status === 401) {
    throw new Error(`${url} refused the control token: give the one its banner printed (STOREFRONT_CONTROL_TOKEN)`);
  }
  if (response.status === 404) {
    throw new Error(`${url} has no control API: restart that server with --control`);
  }
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
}

const table = (rows: string[][]) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

function appLines(app: TeamApp & { client_secret?: string }): string {
  return [
    `  Id:            ${app.id}`,
    `  Kind:          ${app.kind}`,
    `  Client id:     ${app.client_id}`,
    ...(app.client_secret === undefined
      ? []
      : [`  Client secret: ${app.client_secret}`, '                 (shown this once: keep it now)']),
    `  Redirect URIs: ${app.redirect_uris.join(' ') || '(none: no code flow)'}`,
    `  Owner:         ${app.owner}`,
  ].join('\n');
}

async function run(
  command: TeamCommand,
  action: string,
  values: Record<string, unknown>,
  target: string | undefined,
  client: SandboxClient,
): Promise<unknown> {
  const json = values.json === true;
  const say = (result: unknown, text: () => string) => {
    console.log(json ? JSON.stringify(result, null, 2) : text());
    return result;
  };
  if (command === 'apps') {
    if (action === 'add') {
      const app = await client.apps.add({
        name: values.name as string,
        ...(values.kind === undefined ? {} : { kind: values.kind as TeamApp['kind'] }),
        redirect_uris: (values['redirect-uri'] as string[] | undefined) ?? [],
        ...(values.owner === undefined ? {} : { owner: values.owner as string }),
      });
      return say(app, () => `App "${app.name}" registered.\n${appLines(app)}`);
    }
    if (action === 'list') {
      const apps = await client.apps.list();
      return say(apps, () =>
        table([
          ['ID', 'KIND', 'CLIENT ID', 'OWNER', 'NAME', 'REDIRECT URIS'],
          ...apps.map((a) => [a.id, a.kind, a.client_id, a.owner, a.name, a.redirect_uris.join(' ')]),
        ]),
      );
    }
    await client.apps.remove(target!);
    return say({ removed: target }, () => `App ${target} removed; its tokens and codes are revoked.`);
  }
  if (action === 'add') {
    const user = await client.users.add({
      login: values.login as string,
      password: values.password as string,
      ...(values.name === undefined ? {} : { name: values.name as string }),
      shops: (values.shop as string[] | undefined) ?? [],
    });
    return say(
      user,
      () => `User "${user.login}" added (id ${user.id}); administers: ${user.shops.join(', ') || 'no shop'}.`,
    );
  }
  if (action === 'list') {
    const users = await client.users.list();
    return say(users, () =>
      table([
        ['ID', 'LOGIN', 'NAME', 'SHOPS'],
        ...users.map((u: TeamUser) => [u.id, u.login, u.name, u.shops.join(', ')]),
      ]),
    );
  }
  await client.users.remove(target!);
  return say({ removed: target }, () => `User ${target} removed; their tokens and codes are revoked.`);
}

/** Checks what `action` of `command` was given; throws a {@link UsageError}. */
function check(
  command: TeamCommand,
  action: string | undefined,
  values: Record<string, unknown>,
  rest: string[],
  env: NodeJS.ProcessEnv,
) {
  const actions = FLAGS[command];
  if (action === undefined || !Object.hasOwn(actions, action)) {
    throw new UsageError(`give one of ${Object.keys(actions).join(', ')}${action ? `, got "${action}"` : ''}`);
  }
  const allowed = new Set(actions[action]);
  const stray = Object.keys(values).filter((flag) => !allowed.has(flag as never) && !CONNECTION_FLAGS.has(flag));
  if (stray.length > 0) throw new UsageError(`${command} ${action} takes no ${stray.map((f) => `--${f}`).join(', ')}`);
  const wantsTarget = action === 'remove';
  if (rest.length !== (wantsTarget ? 1 : 0)) {
    throw new UsageError(
      wantsTarget
        ? `${command} remove takes one id`
        : `${command} ${action} takes no argument, got "${rest.join(' ')}"`,
    );
  }
  if (action !== 'add') return;
  const needed = command === 'apps' ? ['name'] : ['login'];
  const absent = needed.filter((flag) => values[flag] === undefined).map((flag) => `--${flag}`);
  if (command === 'users' && values.password === undefined && env.STOREFRONT_USER_PASSWORD === undefined) {
    absent.push('--password (or STOREFRONT_USER_PASSWORD)');
  }
  if (absent.length > 0) throw new UsageError(`${command} add needs ${absent.join(' and ')}`);
}

/** Runs `storefront-server apps|users ARGS…`; resolves with the exit code. */
export async function runTeamCommand(
  command: TeamCommand,
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const args = readCommandArgs(command, USAGE[command], argv, OPTIONS, true);
  if (typeof args === 'number') return args;
  const { values, positionals } = args;
  const fail = (message: string, code: number) => {
    console.error(`storefront-server ${command}: ${message}`);
    return code;
  };
  const [action, ...rest] = positionals;
  let url: string;
  let token: string;
  try {
    check(command, action, values, rest, env);
    url = controlUrl(values.url ?? env.STOREFRONT_CONTROL_URL ?? 'http://127.0.0.1:4000');
    const given = values['control-token'] ?? env.STOREFRONT_CONTROL_TOKEN;
    if (!given) {
      throw new UsageError(
        'the control token is needed: STOREFRONT_CONTROL_TOKEN or --control-token (the banner has it)',
      );
    }
    token = given;
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\nRun storefront-server ${command} --help.`, 2);
    throw error;
  }
  try {
    await reach(url, token);
    const password = values.password ?? env.STOREFRONT_USER_PASSWORD;
    await run(command, action!, { ...values, password }, rest[0], connectSandbox({ url, token }));
    return 0;
  } catch (error) {
    // The server refused the input itself (400): a usage error, as a bad flag is.
    return fail((error as Error).message, error instanceof SandboxError && error.status === 400 ? 2 : 1);
  }
}
