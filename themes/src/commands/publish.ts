import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { storedClient } from '../auth/stored-auth.js';
import { printProblems } from '../cli/check-report.js';
import {
  type Command,
  type CommandContext,
  ENV_OPTIONS,
  FILTER_OPTIONS,
  folderOf,
  SHOP_OPTION,
} from '../cli/command.js';
import { acceptDoubt, FORCE_INCOMPLETE } from '../cli/doubt.js';
import { environmentsOf, runForEnvironments } from '../cli/environments.js';
import { filterOf } from '../cli/filter.js';
import { listenForInterruption } from '../cli/interrupt.js';
import type { Output } from '../cli/output.js';
import { countsOf, exitCodeOf, printFiles, themeJson, themeName, transferProgress } from '../cli/report.js';
import { ExitCode, UsageError } from '../errors.js';
import { checkTheme } from '../theme/check.js';
import { themeCheckInput } from '../theme/check-sources.js';
import type { FileFilter } from '../theme/file-filter.js';
import { PUBLISH_JOURNAL_FILE } from '../theme/layout.js';
import { type Manifest, readManifest } from '../theme/manifest.js';
import { applyPublish, planPublish, readPublishThemes } from '../theme/publish.js';
import { type BaseFile, baseOfFiles, baseTexts, readPublishBase, writePublishBase } from '../theme/publish-base.js';
import { PublishCutError } from '../theme/publish-cut.js';
import {
  foldJournal,
  JournalWriter,
  journalFit,
  journalHeader,
  journalOf,
  type PublishJournal,
  readJournal,
  removeJournal,
  setAsideJournal,
} from '../theme/publish-journal.js';
import type { PublishPlan } from '../theme/publish-plan.js';
import type { FileResult } from '../theme/results.js';
import { doubtAbout } from '../theme/source-check.js';
import { targetOf } from '../theme/workspace.js';
import { changeResult, printConflicts, printResolved, SETTLE } from './publish-conflicts-report.js';
import { reportCut } from './publish-cut-report.js';

/**
 * Where the journal of a publish of `plan` lives: in the theme folder when it holds a theme of that shop, else
 * (`--shop` from elsewhere) in the configuration folder, beside the login, one per shop. There it is named by a
 * digest of the shop's id: the id is the server's word, and a name made of it (`/../../x`) could lead anywhere.
 */
function journalFileOf(
  dir: string,
  manifest: Manifest | undefined,
  plan: Pick<PublishPlan, 'shop'>,
  configDir: string,
): string {
  const shop = plan.shop.properties.id;
  if (manifest?.shop.id === shop) return join(dir, PUBLISH_JOURNAL_FILE);
  const digest = createHash('sha256').update(String(shop)).digest('hex').slice(0, 32);
  return join(configDir, `publish-${digest}.jsonl`);
}

const deletions = (changes: readonly { action: string }[]) => changes.filter((c) => c.action === 'deleted').length;
const completed = (started: string | undefined) => (started ? ` (the publish started ${started} is complete)` : '');

/**
 * The check before a publish, of the development theme as the server holds it. The whole theme is read (a
 * reference to an ignored file is to a file production has): the problems of files left out are not this
 * publish's. Returns the exit code when it stops the publish.
 */
function checkDevelopment(output: Output, plan: PublishPlan, filter: FileFilter): ExitCode | undefined {
  const development = plan.files.development;
  const problems = checkTheme(themeCheckInput(development)).filter((p) => p.path === '.' || filter(p.path));
  if (!problems.some((p) => p.severity === 'error')) return undefined;
  output.line('The development theme does not pass check:');
  printProblems(output, problems, development.size);
  const message = 'the development theme has errors (see check): fix them, or pass --no-check';
  output.note(`storefront-themes publish: ${message}`);
  output.document({ ok: false, error: { message, exitCode: ExitCode.failure }, problems });
  return ExitCode.failure;
}

/**
 * The journal of an earlier publish of this plan that was cut short, to resume; one that does not apply (another
 * plan, damaged) is set aside, or kept by a dry run, which changes nothing.
 */
async function journalToResume(
  output: Output,
  journalFile: string,
  previous: PublishJournal | 'damaged' | undefined,
  plan: PublishPlan,
  dryRun: boolean,
): Promise<PublishJournal | undefined> {
  if (previous === undefined) return undefined;
  const fit = previous === 'damaged' ? 'it cannot be read' : journalFit(previous, plan);
  if (fit === 'resume') return previous as PublishJournal;
  if (dryRun) output.note(`The journal ${journalFile} does not apply (${fit}): kept, as a dry run changes nothing`);
  else output.note(`Setting aside the journal ${journalFile} as ${await setAsideJournal(journalFile)}: ${fit}`);
  return undefined;
}

/**
 * Whether the person (or `--yes`) lets the publish go on: a development theme that may be a copy cut short is
 * asked about even with `--yes`, measured, for a resumed publish, against production before its first deletion,
 * as its first run was.
 */
async function approved(context: CommandContext, plan: PublishPlan, resumed: PublishJournal | undefined) {
  const { values, output, prompter } = context;
  const baseline = resumed
    ? { production: resumed.header.production.files, missing: deletions(resumed.header.changes) }
    : { production: plan.files.production.size, missing: deletions(plan.changes) };
  const doubt = doubtAbout(plan.development, baseline);
  const question = `Publish it all the same, deleting ${baseline.missing} files of production?`;
  if (doubt && !(await acceptDoubt(context, doubt, question, 'publish it'))) return false;
  if (values.yes === true) return true;
  if (!prompter.interactive || output.json) {
    throw new UsageError('publishing needs a confirmation: run it in a terminal, or pass --yes');
  }
  const verb = resumed ? 'Finish publishing' : 'Publish';
  return prompter.confirm(`${verb} to the production theme of ${plan.shop.properties.name}?`, '--yes');
}

/**
 * Copies the plan with its journal, the first signal letting the requests under way finish and a second
 * aborting them; the files' results, or the exit code of a publish cut short (after saying what production got).
 */
async function copy(
  output: Output,
  plan: PublishPlan,
  journalFile: string,
  resumed: PublishJournal | undefined,
  cut: { target: string; json: object },
): Promise<FileResult[] | ExitCode> {
  const header = resumed?.header ?? journalHeader(plan);
  const journal = resumed ? await JournalWriter.resume(journalFile) : await JournalWriter.start(journalFile, header);
  const interruption = listenForInterruption(output);
  const progress = transferProgress(output, 'Publishing');
  try {
    const files = await applyPublish(plan, {
      onProgress: progress.onProgress,
      journal,
      stop: interruption.stop,
      abort: interruption.abort,
    });
    progress.done();
    await journal.remove();
    return files;
  } catch (error) {
    progress.done();
    await journal.close();
    if (!(error instanceof PublishCutError)) throw error;
    return reportCut(output, error, { ...cut, journal: journalFile, header });
  } finally {
    interruption.dispose();
  }
}

/** `--ours` or `--theirs`, which exclude each other. */
function favourOf(values: CommandContext['values']): 'ours' | 'theirs' | undefined {
  if (values.ours === true && values.theirs === true) throw new UsageError('--ours and --theirs exclude each other');
  return values.ours === true ? 'ours' : values.theirs === true ? 'theirs' : undefined;
}

/**
 * The base once a publish is complete: each file it covers as the development theme holds it (what production now
 * has of it, merged in or kept), but those whose write failed or met a conflict, and those left out by the filter,
 * which keep their base.
 */
function nextBase(
  plan: PublishPlan,
  base: ReadonlyMap<string, BaseFile> | undefined,
  filter: FileFilter,
  files: FileResult[],
) {
  const { files: development, texts } = baseOfFiles(plan.files.development);
  const next = new Map(base ?? []);
  const open = new Set(files.filter((f) => f.action === 'failed' || f.action === 'conflict').map((f) => f.path));
  const paths = new Set([...next.keys(), ...development.keys(), ...plan.files.production.keys()]);
  for (const path of paths) {
    if (open.has(path) || !filter(path)) continue;
    const file = development.get(path);
    if (file) next.set(path, file);
    else next.delete(path);
  }
  return { files: next, texts };
}

export const publish: Command = {
  name: 'publish',
  summary: "publish the development theme's changes to the production theme, keeping production's own",
  args: '[dir]',
  description: [
    "Brings the development theme's changes since its base (the production state it was copied from, or the last",
    "publish) to the production theme, and keeps production's own changes since (a merchant's edit): a template",
    'both changed in different lines is merged. The base is kept in the folder (.storefront/publish-base.json),',
    'recorded by dev when it creates the development theme. publish shows what will be created, updated and',
    'deleted in production and asks for a confirmation (--yes for scripts), then writes, deletions last.',
    '',
    'A file both changed in the same lines, deleted on one side and changed on the other, an asset both replaced,',
    'a file renamed on one side and deleted or renamed to another name on the other, is a conflict (renamed on',
    'one side and edited on the other, it takes the edit to its new name): publish lists each with both sides and',
    "stops, writing nothing (exit code 3), unless --ours (the development theme's side wins) or --theirs",
    "(production's side is kept). Without a base (another folder, --shop from outside it) every difference is a",
    'conflict: --ours makes production equal to the development theme. --dry-run lists the changes and the',
    'conflicts and writes nothing. A production file changed after the list was shown is a conflict, not',
    "overwritten. The shop is --shop, else the one of the folder's theme (default: the working directory), else",
    'your only shop.',
    '',
    'A development theme that lacks over a quarter of the files of production (at least 10 files), or that the',
    'server marks incomplete, may be a copy cut short: publishing it would delete the rest of production. Then',
    'publish asks even with --yes, and without a terminal stops (exit code 2) unless --force.',
    '',
    `While it writes, the folder holds a journal (${PUBLISH_JOURNAL_FILE}). Cut short (the network, the server,`,
    'Ctrl-C, SIGTERM: the first signal lets the requests under way finish, a second aborts them), publish lists',
    'what production got and what it did not, and exits with 4; run it again to finish: it resumes from the',
    'journal, measuring the development theme against production as it was before the publish began.',
    '',
    'First, publish runs check on the development theme as the server holds it (see check) and stops (exit code',
    "1) on an error; --no-check skips that. Files listed in the folder's .storefrontignore, or left out by",
    '--only/--ignore, are left as production has them.',
    '',
    "With --env (or a default in the folder's storefront-themes.toml), publishes in each environment's shop, a",
    'few at once, after naming the shops and one confirmation for all (--yes): one line per environment (--json:',
    "one object per line). The folder's base applies to the shop the folder holds; elsewhere, see above.",
  ].join('\n'),
  options: {
    shop: SHOP_OPTION,
    yes: { type: 'boolean', short: 'y', description: 'publish without asking' },
    force: { type: 'boolean', description: `${FORCE_INCOMPLETE}; --yes alone does not` },
    'dry-run': { type: 'boolean', description: 'show what would change (and the conflicts), change nothing' },
    ours: { type: 'boolean', description: 'settle conflicts for the development theme: its side of each wins' },
    theirs: { type: 'boolean', description: 'settle conflicts for production: its side of each is kept' },
    'no-check': { type: 'boolean', description: 'publish without checking the development theme first' },
    ...ENV_OPTIONS,
    ...FILTER_OPTIONS,
  },
  maxArgs: 1,
  async run(context) {
    const { values, output, prompter, store } = context;
    const dir = folderOf(context);
    const environments = await environmentsOf(context, dir);
    if (environments) return runForEnvironments(context, publish, dir, environments, 'write');
    const favour = favourOf(values);
    const shopFlag = typeof values.shop === 'string' ? values.shop : undefined;
    // With --shop the folder need not hold a theme; it is read only to keep the journal there if it does.
    const manifest = shopFlag ? await readManifest(dir).catch(() => undefined) : await readManifest(dir);
    const { client } = await storedClient(store);
    const themes = await readPublishThemes(client, shopFlag ?? manifest?.shop.id);
    // The base and the journal live in the folder only when it holds a theme of this shop.
    const inFolder = manifest?.shop.id === themes.shop.properties.id;
    const journalFile = journalFileOf(dir, manifest, themes, store.dir);
    const previous = await readJournal(journalFile);
    const base = inFolder ? await readPublishBase(dir, themes.development, themes.production) : undefined;
    const [development, production] = [themes.development, themes.production].map((t) => t.link('self').expand());
    if (base && previous && previous !== 'damaged' && journalOf(previous, development!, production!)) {
      // What a publish cut short made is published: the base moves past it, and the plan resumes with the rest.
      foldJournal(previous, base, themes.files.production);
    }
    const plan = await planPublish(themes, {
      ...(base ? { base } : {}),
      text: baseTexts(dir),
      ...(favour ? { favour } : {}),
    });
    const filter = await filterOf(context, dir);
    plan.changes = plan.changes.filter((change) => filter(change.path));
    plan.conflicts = plan.conflicts.filter((conflict) => filter(conflict.path));
    plan.resolved = plan.resolved.filter((conflict) => filter(conflict.path));
    if (values['no-check'] !== true) {
      const stopped = checkDevelopment(output, plan, filter);
      if (stopped !== undefined) return stopped;
    }
    const { shop, changes, conflicts } = plan;
    const [target, source] = [targetOf(shop, plan.production), targetOf(shop, plan.development)];
    const json = { ...themeJson(target), from: themeJson(source).theme };
    const dryRun = values['dry-run'] === true;
    if (!plan.based) {
      output.note(
        inFolder
          ? 'No base is recorded in this folder for this development theme (it was made elsewhere, or before this version): every file the two themes hold differently is a conflict'
          : 'No base is recorded for a publish from outside the theme folder: every file the two themes hold differently is a conflict',
      );
    }
    const resumed = await journalToResume(output, journalFile, previous, plan, dryRun);
    const started = resumed?.header.started_on;
    if (resumed) {
      const planned = resumed.header.changes.length;
      output.line(
        `Resuming the publish started ${started}, which was cut short: ${planned - changes.length} of its ${planned} changes are in production`,
      );
    }
    const record = async (files: FileResult[]) => {
      if (!inFolder || dryRun) return;
      const next = nextBase(plan, base, filter, files);
      await writePublishBase(dir, plan, next.files, next.texts);
    };
    const lines = changes.map(changeResult);
    if (!changes.length && !conflicts.length) {
      // The publish it resumed is complete: its journal has nothing left to say.
      if (resumed && !dryRun) await removeJournal(journalFile);
      if (favour) printResolved(output, plan.resolved, favour);
      await record([]);
      output.line(
        `Nothing to publish: ${themeName(target)} holds every change of the development theme${completed(started)}`,
      );
      output.document({ ok: true, ...json, files: [] });
      return ExitCode.ok;
    }
    if (changes.length) {
      output.line(`Publishing ${themeName(source)} to production will change:`);
      printFiles(output, lines);
    }
    if (favour) printResolved(output, plan.resolved, favour);
    if (conflicts.length) {
      printConflicts(output, conflicts);
      const message = `${conflicts.length} ${conflicts.length === 1 ? 'file' : 'files'} changed on both sides: nothing ${dryRun ? 'would be' : 'was'} published; ${SETTLE}`;
      output.line(`Not published: ${SETTLE}`);
      output.note(`storefront-themes publish: ${message}`);
      output.document({
        ok: false,
        ...(dryRun ? { dryRun: true } : {}),
        error: { message, exitCode: ExitCode.conflicts },
        ...json,
        files: lines,
        conflicts,
      });
      return ExitCode.conflicts;
    }
    if (dryRun) {
      output.line(`Would publish: ${countsOf(lines)} (dry run: nothing changed)`);
      output.document({ ok: true, dryRun: true, ...json, files: lines, conflicts: [] });
      return ExitCode.ok;
    }
    if (!(await approved(context, plan, resumed))) {
      output.line('Not published');
      return ExitCode.ok;
    }
    // No question is left: in a terminal, Ctrl-C must now reach the process as SIGINT, not the prompt's reader.
    prompter.close();
    const files = await copy(output, plan, journalFile, resumed, { target: themeName(target), json });
    if (typeof files === 'number') return files;
    await record(files);
    // The plan listed every file already: only what went otherwise is worth a line now.
    printFiles(output, files, { quiet: true });
    output.line(`Published to ${themeName(target)}: ${countsOf(files)}${completed(started)}`);
    const code = exitCodeOf(files);
    output.document({ ok: code === 0, ...json, files, ...(resumed ? { resumed: started } : {}) });
    return code;
  },
};
