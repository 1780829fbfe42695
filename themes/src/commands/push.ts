import { storedClient } from '../auth/stored-auth.js';
import {
  type Command,
  type CommandContext,
  ENV_OPTIONS,
  type EnvironmentRun,
  FILTER_OPTIONS,
  folderOf,
} from '../cli/command.js';
import { describeError } from '../cli/describe-error.js';
import { environmentsOf, isOwnManifest, runForEnvironments } from '../cli/environments.js';
import { filterOf } from '../cli/filter.js';
import { listenForInterruption } from '../cli/interrupt.js';
import {
  conflictHint,
  countsOf,
  exitCodeOf,
  plural,
  printFiles,
  printLinks,
  themeJson,
  themeName,
  transferProgress,
} from '../cli/report.js';
import { ExitCode } from '../errors.js';
import { PushCutShortError, pushTheme, SENT } from '../theme/push.js';

export const push: Command = {
  name: 'push',
  summary: "send the folder's changes since the last pull to its theme",
  args: '[dir]',
  description: [
    'Sends only what changed in the folder since the last pull, one request per file: templates by content,',
    'each with the last_updated_on guard (a template changed on the server meanwhile is refused, not',
    'overwritten), assets by MD5, and deletions. A file changed on both sides is a conflict: reported and',
    'skipped (exit code 3) unless --force, which sends yours (one deleted on the server is created again).',
    'Symbolic links are ignored, never followed: a file replaced by one is neither sent nor deleted. A template',
    'that holds conflict markers (from pull --merge) is not sent (exit code 1). Files listed in .storefrontignore',
    'or left out by --only/--ignore are left alone. A new file named as another of the theme or the folder but',
    'for case (page.html, Page.html) is skipped (exit code 1): pull could not bring it back. A rename but for case',
    'is sent as such.',
    '',
    "With --env (or a default in the folder's storefront-themes.toml), pushes to each environment's shop, a few",
    'at once: the shops are named first, a production theme is pushed to only after a yes (or --yes), and each',
    "environment gets one line (--json: one object per line). An environment's first push compares the folder",
    'with its theme: files it holds otherwise are conflicts unless --force.',
  ].join('\n'),
  options: {
    force: { type: 'boolean', description: 'send conflicting files too, overwriting the changes made on the server' },
    'dry-run': { type: 'boolean', description: 'show what would be sent, send nothing' },
    yes: { type: 'boolean', short: 'y', description: 'with environments: push to a production theme without asking' },
    ...ENV_OPTIONS,
    ...FILTER_OPTIONS,
  },
  maxArgs: 1,
  run(context) {
    // Ctrl-C is listened to from the start, once for every environment (see interrupt.ts): before a request is sent
    // it stops the push at once; after, the requests under way finish, are recorded, and the push says what it
    // sent. A dry run sends nothing: Ctrl-C ends it as it ends any command.
    if (context.interruption || context.values['dry-run'] === true) return pushFolder(context);
    const interruption = listenForInterruption(context.output);
    return pushFolder({ ...context, interruption }).finally(() => interruption.dispose());
  },
};

/** The push of the folder to its theme, or to the theme of each of its environments. */
async function pushFolder(context: CommandContext): Promise<ExitCode> {
  const { values, output, store, interruption } = context;
  const dir = folderOf(context);
  const environments = await environmentsOf(context, dir);
  if (environments) return runForEnvironments(context, push, dir, environments, 'write');
  const { client } = await storedClient(store, { cache: false });
  const progress = transferProgress(output, 'Pushing');
  const dryRun = values['dry-run'] === true;
  const { result, cut } = await pushTheme({
    client,
    ...(interruption ? { stop: interruption.stop, signal: interruption.abort } : {}),
    dir,
    filter: await filterOf(context, dir),
    force: values.force === true,
    dryRun,
    onProgress: progress.onProgress,
    ...(context.environment ? { manifestFile: context.environment.manifestFile } : {}),
    ...(context.environment?.folder ? { folder: await context.environment.folder() } : {}),
    ...(context.environment?.start ? { start: context.environment.start } : {}),
  }).then(
    (result) => ({ result, cut: undefined }),
    (error: unknown) => {
      if (!(error instanceof PushCutShortError)) throw error;
      // Reported as a push that ends: its conflicts and failures need attention all the same.
      return { result: error.result, cut: cutShort(error) };
    },
  );
  const { files, manifest, incoming, links } = result;
  printFiles(output, files, { quiet: progress.done() });
  printLinks(output, links);
  const target = themeName(manifest);
  if (cut) output.line(`Pushing to ${target} was cut short (${cut.why}): ${countsOf(files)}`);
  else if (!files.length) output.line(`Nothing to push: ${target} has every change of this folder`);
  else if (dryRun) output.line(`Would push to ${target}: ${countsOf(files)} (dry run: nothing sent)`);
  else output.line(`Pushed to ${target}: ${countsOf(files)}`);
  if (incoming?.length) output.line(incomingLine(incoming.length, context.environment, dryRun));
  conflictHint(
    output,
    files,
    context.environment && isOwnManifest(context.environment) ? context.environment : undefined,
  );
  const code = cut ? ExitCode.interrupted : exitCodeOf(files);
  // The error line run.ts prints for a failure, after the report.
  if (cut) output.note(`storefront-themes push: ${cut.message}`);
  output.document({
    ok: code === 0,
    ...(cut ? { interrupted: true, error: { message: cut.message, exitCode: code } } : {}),
    dryRun,
    dir: result.dir,
    ...themeJson(manifest),
    files,
    links,
  });
  return code;
}

/**
 * The changes on the server a push left there, and the status that lists them: that of the same environment. Before
 * an environment's first push has recorded its manifest, status refuses it, so that push's dry run says when.
 */
function incomingLine(count: number, environment: EnvironmentRun | undefined, dryRun: boolean): string {
  const status = environment ? `status --env ${environment.name}` : 'status';
  const where =
    environment?.start && dryRun
      ? `${status} lists ${count === 1 ? 'it' : 'them'} after the first push`
      : `see ${status}`;
  return `${plural(count, 'change')} on the server not pulled yet (${where})`;
}

/** Why a push was cut short, and the error it ends with: how many files went, and where the rest is. */
function cutShort({ cause, files }: PushCutShortError): { why: string; message: string } {
  const why = describeError(cause).message;
  const sent = plural(files.filter((file) => SENT.has(file.action)).length, 'file');
  return {
    why,
    message: `pushing was cut short (${why}): ${sent} sent (recorded in the folder's manifest); status shows the rest, push again sends it`,
  };
}
