/**
 * A command run for environments of the folder's `storefront-themes.toml` (`--env NAME`, repeatable, or a glob;
 * else the file's default): each environment's shop is read from the API with its own stored login and shown
 * before anything is written (the wrong-shop guard: a production theme is written only after a yes in the
 * terminal, or `--yes`), then the command runs for each, a few at a time, and prints one line per environment
 * (a report such as status: its lines under that one; `--json`: one object per environment, one per line). The
 * exit code is the worst of theirs.
 */
import { Readable, Writable } from 'node:stream';
import { storedClient } from '../auth/stored-auth.js';
import { type Environment, readEnvironments, selectEnvironments } from '../config/environments.js';
import { configDir, loginStore } from '../config/store.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { printable, printableWhole } from '../printable.js';
import { ENVIRONMENT_MANIFESTS_DIR, MANIFEST_FILE } from '../theme/layout.js';
import { listThemes } from '../theme/list.js';
import { type Manifest, readManifest, type ThemeTarget } from '../theme/manifest.js';
import { parallel } from '../theme/parallel.js';
import { type FolderRead, readFolder } from '../theme/workspace.js';
import type { Command, CommandContext, EnvironmentRun } from './command.js';
import { describeError } from './describe-error.js';
import { Output } from './output.js';
import { Prompter } from './prompt.js';

/** How many environments run at once unless `--concurrency` says: as many as one push's own writes. */
export const ENVIRONMENT_CONCURRENCY = 4;

/** What a command does to the environments' shops: `write` may change a production theme. */
export type EnvironmentUse = 'local' | 'read' | 'write';

/** Where an environment's manifest lies: the folder's own for its default, else one of its own. */
export function manifestFileOf(name: string, isDefault: boolean): string {
  return isDefault ? MANIFEST_FILE : `${ENVIRONMENT_MANIFESTS_DIR}/${name}.json`;
}

/** An environment with its shop and theme as the API reports them. */
interface Resolved {
  environment: Environment;
  manifestFile: string;
  target?: ThemeTarget;
  /** The manifest of its first push (see {@link startManifest}). */
  start?: Manifest;
  /** Why it cannot run (its login, its shop, its folder state). */
  problem?: { message: string; exitCode: ExitCode };
}

const text = (values: CommandContext['values'], name: string): string[] => {
  const value = values[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is string => typeof v === 'string',
  );
};

/**
 * The environments to run `command` for, `undefined` when it runs as before (no environments file, or no default
 * and no `--env`). `--env` without the file is a usage error.
 */
export async function environmentsOf(context: CommandContext, dir: string): Promise<Environment[] | undefined> {
  if (context.environment) return undefined;
  const wanted = text(context.values, 'env');
  const environments = await readEnvironments(dir);
  if (!environments) {
    if (wanted.length) throw new UsageError(`--env needs a storefront-themes.toml in ${dir} (see docs/themes-cli.md)`);
    return undefined;
  }
  if (!wanted.length && environments.default === undefined) return undefined;
  return selectEnvironments(environments, wanted.length ? wanted : [environments.default!]);
}

/** The theme `environment` names, as the API reports it, with the login it names; or why not. */
async function resolve(context: CommandContext, environment: Environment, isDefault: boolean) {
  const manifestFile = manifestFileOf(environment.name, isDefault);
  const resolved: Resolved = { environment, manifestFile };
  try {
    const store = loginStore(configDir(context.env), environment.login);
    const app = await store.credentials();
    const login = environment.login === undefined ? 'the unnamed login' : `the login "${environment.login}"`;
    if (!app) {
      const flag = environment.login === undefined ? '' : ` --login ${environment.login}`;
      throw new UsageError(`no ${login} is stored: run storefront-themes login${flag}`);
    }
    if (environment.server && environment.server !== app.url) {
      throw new UsageError(`${login} is for ${app.url}, not ${environment.server}`);
    }
    // Each URL read once: no cache to fill.
    const { client } = await storedClient(store, { cache: false });
    // Read before anything is written: a Ctrl-C (see interrupt.ts) aborts it at once.
    const { shop, themes } = await listThemes(client, environment.shop, context.interruption?.stop);
    const theme = themes.find((t) => t.role === environment.theme || t.id === environment.theme);
    if (!theme) {
      const which =
        environment.theme === 'development'
          ? 'no development theme (create it with dev)'
          : `no theme ${JSON.stringify(environment.theme)}`;
      throw new UsageError(`${printable(shop.name)} has ${which}`);
    }
    const { id, title, href, preview, role } = theme;
    resolved.target = { shop, theme: { id, title, production: role === 'production', href, preview } };
  } catch (error) {
    resolved.problem = describeError(error);
  }
  return resolved;
}

/** A folder state that belongs to another shop or theme than its environment's: never reused silently. */
async function stateProblem(dir: string, { environment, manifestFile, target }: Resolved, anyRole: boolean) {
  const state = await readManifest(dir, manifestFile).catch((error: Error) => error);
  if (state instanceof Error) return describeError(state);
  if (!state || !target) return undefined;
  const sameTheme =
    state.shop.id === target.shop.id &&
    new URL(state.theme.href).origin === new URL(target.theme.href).origin &&
    // publish reads the folder only for its base, which is the shop's whatever theme the folder holds.
    (anyRole || state.theme.production === target.theme.production);
  if (sameTheme) return undefined;
  const was = `"${printable(state.theme.title)}" of ${printable(state.shop.name)} (${printable(state.shop.subdomain)})`;
  const message = `the folder holds ${was}, not the theme of environment "${environment.name}" (${printable(target.shop.subdomain)}): pull --env ${environment.name} first, or choose another with --env`;
  return { message, exitCode: ExitCode.usage };
}

/**
 * A new manifest of `target` with no file, when the environment has none: its first push compares the folder with
 * its theme. Held in memory, not written: a dry run writes nothing, and a push writes it as it ends.
 */
async function startManifest(dir: string, { manifestFile, target }: Resolved): Promise<Manifest | undefined> {
  if (!target || (await readManifest(dir, manifestFile))) return undefined;
  return { version: 1, ...target, pulled_on: new Date().toISOString(), files: {} };
}

/**
 * The refusal of status, diff and pull for an environment the folder has no manifest of (never pushed): there is
 * no base to compare with or merge against, and the folder holds the default's theme, not that shop's, so pulling
 * its theme here would mix it into the folder (and the default's next push would send it).
 */
export function unpushedEnvironment(dir: string, { name, manifestFile }: EnvironmentRun): UsageError {
  return new UsageError(
    `environment "${name}" has no manifest in ${printableWhole(dir)} yet (${manifestFile}): push --env ${name} first (its first push compares the folder with its theme; --dry-run shows what it would do)`,
  );
}

/** Whether `environment` keeps a manifest of its own (not the folder's, which is the default's). */
export const isOwnManifest = (environment: EnvironmentRun) => environment.manifestFile !== MANIFEST_FILE;

/** The line that says where an environment's command writes, before it does. */
function targetLine({ environment, target }: Resolved): string {
  if (!target) return `  ${environment.name}: ?`;
  const role = target.theme.production ? 'production' : 'development';
  return `  ${environment.name}: ${printable(target.shop.name)} (${printable(target.shop.subdomain)}), ${role} theme "${printable(target.theme.title)}"`;
}

/** The wrong-shop guard: every shop named, and a production write confirmed (or `--yes`). */
async function guard(context: CommandContext, command: Command, resolved: Resolved[], use: EnvironmentUse) {
  const { output, prompter, values } = context;
  output.note(`${command.name} for ${resolved.length === 1 ? 'this shop' : 'these shops'}:`);
  for (const one of resolved) output.note(targetLine(one));
  if (use !== 'write' || values['dry-run'] === true) return true;
  const production = resolved.filter((r) => r.target && (command.name === 'publish' || r.target.theme.production));
  if (!production.length || values.yes === true) return true;
  const shops = production.map((r) => printable(r.target!.shop.name)).join(', ');
  if (!prompter.interactive || output.json) {
    throw new UsageError(
      `${command.name} to the production theme of ${shops} needs a confirmation: run it in a terminal, or pass --yes`,
    );
  }
  const verb = command.name === 'publish' ? 'Publish' : 'Push';
  return prompter.confirm(`${verb} to the production theme of ${shops}?`, '--yes');
}

/** A stream that keeps what is written to it. */
function capture(): { stream: NodeJS.WriteStream; text(): string } {
  let written = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => written };
}

/** One environment's result. */
interface EnvironmentResult {
  environment: string;
  shop: ThemeTarget['shop'] | null;
  exitCode: ExitCode;
  /** The command's last line (its summary), or its error. */
  summary: string;
  /** What the command printed, line by line: none when it failed, or printed straight to the terminal. */
  lines: string[];
  /** The command's JSON document. */
  result: unknown;
}

/** Runs `command` for one environment, its output kept (or, `direct`, shown as it comes). */
async function runOne(
  context: CommandContext,
  command: Command,
  one: Resolved,
  direct: boolean,
  folder: EnvironmentRun['folder'],
): Promise<EnvironmentResult> {
  const { environment, target, manifestFile } = one;
  const shop = target?.shop ?? null;
  const failed = (message: string, exitCode: ExitCode): EnvironmentResult => ({
    environment: environment.name,
    shop,
    exitCode,
    summary: message,
    lines: [],
    result: { ok: false, error: { message, exitCode } },
  });
  if (one.problem && direct) throw new CliError(one.problem.message, one.problem.exitCode);
  if (one.problem) return failed(one.problem.message, one.problem.exitCode);
  const [stdout, stderr] = [capture(), capture()];
  const output = direct
    ? context.output
    : new Output({ json: context.output.json, stdout: stdout.stream, stderr: stderr.stream, env: { NO_COLOR: '1' } });
  const values: CommandContext['values'] = {
    ...context.values,
    only: [...text(context.values, 'only'), ...environment.only],
    ignore: [...text(context.values, 'ignore'), ...environment.ignore],
    // The guard asked (or --yes said) already, for every shop at once.
    yes: true,
  };
  if (target) {
    values.shop = target.shop.id;
    values.dev = !target.theme.production;
    values.production = target.theme.production;
  }
  const inner: CommandContext = {
    ...context,
    values,
    output,
    // No question reaches a person from several at once; one alone may ask (a publish's incomplete theme).
    prompter: direct ? context.prompter : new Prompter(Readable.from([]) as NodeJS.ReadStream, stderr.stream),
    store: loginStore(configDir(context.env), environment.login),
    environment: {
      name: environment.name,
      manifestFile,
      ...(folder ? { folder } : {}),
      ...(one.start ? { start: one.start } : {}),
    },
  };
  if (direct) {
    // One environment in a terminal: the command's own lines, and its error as run.ts prints any.
    const exitCode = await command.run(inner).finally(() => inner.prompter.close());
    return { environment: environment.name, shop, exitCode, summary: '', lines: [], result: null };
  }
  try {
    const exitCode = await command.run(inner);
    const text = stdout.text().trimEnd();
    const lines = text ? text.split('\n') : [];
    const last = lines.at(-1) ?? '';
    const result = context.output.json && !direct ? JSON.parse(last || 'null') : null;
    return { environment: environment.name, shop, exitCode, summary: last, lines, result };
  } catch (error) {
    const { message, exitCode } = describeError(error);
    return failed(message, exitCode);
  } finally {
    inner.prompter.close();
  }
}

/** The line of one environment's result, and with `report` the command's lines under it (its summary among them). */
function resultLines(output: Output, result: EnvironmentResult, width: number, report: boolean): string[] {
  const word = result.exitCode === 0 ? output.paint('green', 'ok    ') : output.paint('red', 'failed');
  const shop = result.shop ? printable(result.shop.subdomain) : '-';
  const body = report ? result.lines.map((line) => (line ? `    ${line}` : '')) : [];
  const summary = body.length ? '' : printableLine(result.summary);
  return [`  ${word} ${result.environment.padEnd(width)}  ${shop}  ${summary}`.trimEnd(), ...body];
}

const printableLine = (line: string) => line.replace(/^\s+/, '');

/** The worst exit code: a failure before a cut-short publish before conflicts before a usage error. */
function worst(codes: readonly ExitCode[]): ExitCode {
  for (const code of [ExitCode.failure, ExitCode.interrupted, ExitCode.conflicts, ExitCode.usage]) {
    if (codes.includes(code)) return code;
  }
  return ExitCode.ok;
}

/**
 * Runs `command` for `environments` (see the top of this file); `use` says whether it reads the shops (`read`),
 * may write to them (`write`), or works on the folder alone (`local`: no login, no guard). `report`: the command's
 * lines are what was asked for (status, diff), each environment's shown under its line rather than its last alone.
 */
export async function runForEnvironments(
  context: CommandContext,
  command: Command,
  dir: string,
  environments: Environment[],
  use: EnvironmentUse,
  report = false,
): Promise<ExitCode> {
  const { output, values } = context;
  const limit = values.concurrency === undefined ? ENVIRONMENT_CONCURRENCY : Number(values.concurrency);
  if (!(Number.isInteger(limit) && limit >= 1)) {
    throw new UsageError(`--concurrency takes a whole number of at least 1, not ${JSON.stringify(values.concurrency)}`);
  }
  const file = await readEnvironments(dir);
  const resolved: Resolved[] =
    use === 'local'
      ? environments.map((environment) => ({ environment, manifestFile: manifestFileOf(environment.name, false) }))
      : await parallel(environments, limit, (environment) =>
          resolve(context, environment, file?.default === environment.name),
        );
  if (use !== 'local') {
    for (const one of resolved) {
      // pull is what moves a folder to another theme; every other command keeps to the one it holds.
      if (!one.problem && command.name !== 'pull')
        one.problem = await stateProblem(dir, one, command.name === 'publish');
    }
    if (!(await guard(context, command, resolved, use))) {
      output.line('Nothing done: not confirmed');
      return ExitCode.ok;
    }
    if (command.name === 'push') {
      for (const one of resolved) if (!one.problem) one.start = await startManifest(dir, one);
    }
  }
  const direct = resolved.length === 1 && !output.json;
  const width = Math.max(...resolved.map((r) => r.environment.name.length));
  // Every push sends the same folder: read once, when the first needs it.
  let read: Promise<FolderRead> | undefined;
  const folder = command.name === 'push' ? () => (read ??= readFolder(dir)) : undefined;
  const results = await parallel(resolved, limit, async (one) => {
    const result = await runOne(context, command, one, direct, folder);
    if (output.json) {
      output.document({
        environment: result.environment,
        shop: result.shop,
        exitCode: result.exitCode,
        ...(result.result as object),
      });
    } else if (!direct) for (const line of resultLines(output, result, width, report)) output.line(line);
    return result;
  });
  const failed = results.filter((r) => r.exitCode !== 0);
  if (failed.length && resolved.length > 1) {
    const which = failed.map((r) => `${r.environment} (exit ${r.exitCode})`).join(', ');
    output.note(
      `storefront-themes ${command.name}: ${failed.length} of ${results.length} environments did not succeed: ${which}`,
    );
  }
  return worst(results.map((r) => r.exitCode));
}
