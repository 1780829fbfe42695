import { storedClient } from '../auth/stored-auth.js';
import { type Command, folderOf, SHOP_OPTION } from '../cli/command.js';
import { acceptDoubt, FORCE_INCOMPLETE } from '../cli/doubt.js';
import { themeName, transferProgress } from '../cli/report.js';
import { ExitCode } from '../errors.js';
import { pullTheme } from '../theme/pull.js';
import { themeFiles } from '../theme/remote.js';
import { doubtAbout, missingFrom } from '../theme/source-check.js';
import type { Workspace } from '../theme/workspace.js';
import { openInBrowser } from './open-url.js';
import { reportPull } from './pull-report.js';

export const dev: Command = {
  name: 'dev',
  summary: 'create (or reuse) the development theme, pull it, show its preview',
  args: '[dir]',
  description: [
    "Creates the shop's development theme (a copy of the production theme) unless it has one, pulls it into the",
    'folder (default: the working directory) as pull --dev does, and prints the address of its preview, which',
    'needs no login. A folder that held the production theme keeps its own changes, to push to this one.',
    'A development theme that already existed and lacks over a quarter of the files of production (at least 10),',
    'or that the server marks incomplete, may be a copy cut short: dev asks before using it, and without a',
    'terminal stops (exit code 2) unless --force.',
    'Then: storefront-themes watch, edit, and storefront-themes publish.',
  ].join('\n'),
  options: {
    shop: SHOP_OPTION,
    open: { type: 'boolean', description: 'open the preview in the browser' },
    force: {
      type: 'boolean',
      description: `take the server's version of conflicting files too, and ${FORCE_INCOMPLETE}`,
    },
  },
  maxArgs: 1,
  async run(context) {
    const { values, output, store } = context;
    const { client } = await storedClient(store);
    const progress = transferProgress(output, 'Pulling');
    // A development theme created now is a whole copy; one found may be a copy cut short, which would delete
    // from the folder every file it lacks.
    // Counted on both themes' raw file names, as publish counts them: a name the folder refuses is still a file.
    const vet = async ({ created, theme, production }: Workspace) => {
      if (created) return;
      const files = themeFiles(production);
      const missing = missingFrom(files.keys(), themeFiles(theme));
      const doubt = doubtAbout(theme, { production: files.size, missing });
      if (!doubt || (await acceptDoubt(context, doubt, 'Use it all the same?', 'use it'))) return;
      throw new NotUsed();
    };
    const result = await pullTheme({
      client,
      dir: folderOf(context),
      development: true,
      create: true,
      ...(typeof values.shop === 'string' ? { shop: values.shop } : {}),
      force: values.force === true,
      onProgress: progress.onProgress,
      vet,
    }).catch((error) => {
      if (!(error instanceof NotUsed)) throw error;
    });
    if (!result) {
      output.line('Not used: nothing changed in the folder');
      return ExitCode.ok;
    }
    const { manifest, created } = result.workspace;
    const barShown = progress.done();
    output.line(`${created ? 'Created' : 'Using'} the development theme ${themeName(manifest)}`);
    const { preview } = manifest.theme;
    const code = reportPull(output, result, barShown, { created });
    output.line(`Preview: ${preview}`);
    if (values.open === true) await openInBrowser(preview, output);
    return code;
  },
};

/** Stops the pull when the person would rather not use the development theme found. */
class NotUsed extends Error {}
