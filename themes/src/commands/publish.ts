import { storedClient } from '../auth/stored-auth.js';
import { type Command, folderOf, SHOP_OPTION } from '../cli/command.js';
import { countsOf, exitCodeOf, printFiles, themeJson, themeName, transferProgress } from '../cli/report.js';
import { ExitCode, UsageError } from '../errors.js';
import { readManifest } from '../theme/manifest.js';
import { applyPublish, planPublish } from '../theme/publish.js';
import { targetOf } from '../theme/workspace.js';

export const publish: Command = {
  name: 'publish',
  summary: "copy the development theme's templates and assets to the production theme",
  args: '[dir]',
  description: [
    "Makes the production theme hold exactly the development theme's templates and assets: shows what will be",
    'created, updated and deleted in production, asks for a confirmation (--yes for scripts), then copies.',
    "The shop is --shop, else the one of the folder's theme (default: the working directory), else your only",
    'shop. A production template changed after the list was shown is a conflict, not overwritten.',
  ].join('\n'),
  options: {
    shop: SHOP_OPTION,
    yes: { type: 'boolean', short: 'y', description: 'publish without asking' },
    'dry-run': { type: 'boolean', description: 'show what would change, change nothing' },
  },
  maxArgs: 1,
  async run(context) {
    const { values, output, prompter, store } = context;
    const manifest = typeof values.shop === 'string' ? undefined : await readManifest(folderOf(context));
    const { client } = await storedClient(store);
    const plan = await planPublish(client, typeof values.shop === 'string' ? values.shop : manifest?.shop.id);
    const { shop, production, development, changes } = plan;
    const [target, source] = [targetOf(shop, production), targetOf(shop, development)];
    const json = { ...themeJson(target), from: themeJson(source).theme };
    if (!changes.length) {
      output.line(`Nothing to publish: ${themeName(target)} holds the same files as the development theme`);
      output.document({ ok: true, ...json, files: [] });
      return ExitCode.ok;
    }
    output.line(`Publishing ${themeName(source)} to production will change:`);
    printFiles(output, changes);
    if (values['dry-run'] === true) {
      output.line(`Would publish: ${countsOf(changes)} (dry run: nothing changed)`);
      output.document({ ok: true, dryRun: true, ...json, files: changes });
      return ExitCode.ok;
    }
    if (values.yes !== true) {
      if (!prompter.interactive || output.json) {
        throw new UsageError('publishing needs a confirmation: run it in a terminal, or pass --yes');
      }
      if (!(await prompter.confirm(`Publish to the production theme of ${shop.properties.name}?`, '--yes'))) {
        output.line('Not published');
        return ExitCode.ok;
      }
    }
    const progress = transferProgress(output, 'Publishing');
    const files = await applyPublish(plan, progress.onProgress);
    progress.done();
    // The plan listed every file already: only what went otherwise is worth a line now.
    printFiles(output, files, { quiet: true });
    output.line(`Published to ${themeName(target)}: ${countsOf(files)}`);
    const code = exitCodeOf(files);
    output.document({ ok: code === 0, ...json, files });
    return code;
  },
};
