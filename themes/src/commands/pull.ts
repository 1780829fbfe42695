import { storedClient } from '../auth/stored-auth.js';
import { type Command, ENV_OPTIONS, FILTER_OPTIONS, folderOf, SHOP_OPTION } from '../cli/command.js';
import { environmentsOf, isOwnManifest, runForEnvironments, unpushedEnvironment } from '../cli/environments.js';
import { filterOf } from '../cli/filter.js';
import { transferProgress } from '../cli/report.js';
import { UsageError } from '../errors.js';
import { readManifest } from '../theme/manifest.js';
import { pullTheme } from '../theme/pull.js';
import { reportPull } from './pull-report.js';

export const pull: Command = {
  name: 'pull',
  summary: 'download the theme into a folder, or its changes since the last pull',
  args: '[dir]',
  description: [
    'Writes the theme into the folder (default: the working directory; created when missing): templates as',
    'files under their file names, assets under assets/. A folder pulled before gets only what changed on the',
    'server since, and keeps its own changes for push; a file changed on both sides is a conflict, left alone',
    'unless --force. .storefront-theme.json records the theme and each file (id, updated_on, MD5).',
    'A new folder gets the production theme unless --dev; a folder pulled before, the theme it holds.',
    'Names from the server pass the rule of local files (at most two levels, letters, digits, ".", "_", "-",',
    "a theme file's extension) and sizes the API's limits; a file that does not is skipped and reported (exit",
    'code 1), the rest is pulled. Nothing is written through a symbolic link, nor over a file the manifest does',
    'not track (unless --force).',
    'With --merge, a template changed on both sides is merged three ways against the version both last had (kept',
    'under .storefront/base): changes to different lines are combined and written; changes to the same lines are',
    'written between conflict markers (<<<<<<< folder, =======, >>>>>>> server) and reported as conflicts (exit',
    'code 3): resolve them, then push (push refuses a file that still holds markers).',
    'Files listed in .storefrontignore (gitignore syntax) or left out by --only/--ignore are left alone.',
    "--env pulls the theme of one environment of the folder's storefront-themes.toml (one: a folder holds one",
    "theme's files; pull each environment into a folder of its own to compare them).",
  ].join('\n'),
  options: {
    dev: { type: 'boolean', description: 'pull the development theme (see dev)' },
    production: { type: 'boolean', description: 'pull the production theme' },
    shop: SHOP_OPTION,
    force: { type: 'boolean', description: "take the server's version of conflicting files too" },
    merge: { type: 'boolean', description: 'merge templates changed on both sides, three ways (conflict markers)' },
    env: {
      ...ENV_OPTIONS.env!,
      description: "the environment of the folder's storefront-themes.toml to pull (one; default: its default)",
    },
    ...FILTER_OPTIONS,
  },
  maxArgs: 1,
  async run(context) {
    const { values, output, store } = context;
    if (values.dev && values.production) throw new UsageError('choose one of --dev and --production');
    if (values.merge && values.force) throw new UsageError('choose one of --merge and --force');
    const dir = folderOf(context);
    const environments = await environmentsOf(context, dir);
    if (environments && environments.length > 1) {
      // Each would overwrite the last's files in the one folder.
      throw new UsageError(
        `pull takes one environment, not ${environments.length}: a folder holds one theme's files (pull each into a folder of its own)`,
      );
    }
    if (environments) return runForEnvironments(context, pull, dir, environments, 'read');
    const { environment } = context;
    // Another shop's theme into the default's folder, against no base: refused (see unpushedEnvironment).
    if (environment && isOwnManifest(environment) && !(await readManifest(dir, environment.manifestFile))) {
      throw unpushedEnvironment(dir, environment);
    }
    const filter = await filterOf(context, dir);
    const { client } = await storedClient(store);
    const progress = transferProgress(output, 'Pulling');
    const result = await pullTheme({
      client,
      dir,
      filter,
      merge: values.merge === true,
      ...(values.dev || values.production ? { development: values.dev === true } : {}),
      ...(typeof values.shop === 'string' ? { shop: values.shop } : {}),
      force: values.force === true,
      onProgress: progress.onProgress,
      ...(context.environment ? { manifestFile: context.environment.manifestFile } : {}),
    });
    return reportPull(output, result, progress.done());
  },
};
