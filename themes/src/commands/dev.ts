import { storedClient } from '../auth/stored-auth.js';
import { type Command, folderOf, SHOP_OPTION } from '../cli/command.js';
import { describeError } from '../cli/describe-error.js';
import { acceptDoubt, FORCE_INCOMPLETE } from '../cli/doubt.js';
import { filterOf } from '../cli/filter.js';
import { themeName, transferProgress } from '../cli/report.js';
import { printCheckErrors } from '../cli/watch-report.js';
import { ExitCode, UsageError } from '../errors.js';
import { DevProblems, folderErrors, touchesFolder } from '../theme/dev-problems.js';
import { startLivePreview } from '../theme/live-preview.js';
import { baseOfFiles, writePublishBase } from '../theme/publish-base.js';
import { pullTheme } from '../theme/pull.js';
import { themeFiles } from '../theme/remote.js';
import { doubtAbout, missingFrom } from '../theme/source-check.js';
import type { Workspace } from '../theme/workspace.js';
import { openInBrowser } from './open-url.js';
import { reportPull } from './pull-report.js';
import { WATCH_OPTIONS, watchUntilStopped } from './watch.js';

/** The local preview's port unless --port says otherwise: the one theme developers know from other tools. */
const DEFAULT_PORT = 9292;

export const dev: Command = {
  name: 'dev',
  summary: 'create (or reuse) the development theme, pull it, serve its preview with live reload, push on save',
  args: '[dir]',
  description: [
    "Creates the shop's development theme (a copy of the production theme) unless it has one, pulls it into the",
    'folder (default: the working directory) as pull --dev does, and prints the address of its preview, which',
    'needs no login. A folder that held the production theme keeps its own changes, to push to this one.',
    'A development theme that already existed and lacks over a quarter of the files of production (at least 10),',
    'or that the server marks incomplete, may be a copy cut short: dev asks before using it, and without a',
    'terminal stops (exit code 2) unless --force.',
    '',
    `Then it serves a live preview on http://127.0.0.1:${DEFAULT_PORT}/ (--port): the development theme's preview`,
    'page, with a script that reloads it after each change pushed or pulled, once the server took the write (never',
    'on the save alone); a stylesheet is swapped in place, without reloading the page. A push the server refused',
    'and the errors check finds in the folder are shown over the page (file, line, rule) until fixed. Meanwhile it',
    "watches the folder as watch does (each save pushed, the server's changes brought: see watch), until Ctrl-C.",
    '--open opens the live preview in the browser.',
    "--no-serve stops after the pull (for scripts): it prints the theme's preview address, which --open opens.",
    'Then: edit, and storefront-themes publish.',
  ].join('\n'),
  options: {
    shop: SHOP_OPTION,
    open: { type: 'boolean', description: 'open the (live) preview in the browser' },
    port: {
      type: 'string',
      value: 'N',
      description: `port of the live preview on 127.0.0.1 (default ${DEFAULT_PORT}; 0: any)`,
    },
    'no-serve': { type: 'boolean', description: 'pull, print the preview address and stop: no live preview, no watch' },
    ...WATCH_OPTIONS,
    force: {
      type: 'boolean',
      description: `take the server's version of conflicting files too, and ${FORCE_INCOMPLETE}`,
    },
  },
  maxArgs: 1,
  async run(context) {
    const { values, output, store } = context;
    const serve = values['no-serve'] !== true;
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!(typeof values.port !== 'boolean' && Number.isInteger(port) && port >= 0 && port <= 65535)) {
      throw new UsageError(`--port must be a port number, got "${values.port}"`);
    }
    const { client } = await storedClient(store);
    const dir = folderOf(context);
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
      dir,
      filter: await filterOf(context, dir),
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
    if (created) {
      // A copy of production made just now: the state publish will merge production's later changes against.
      const { theme, production } = result.workspace;
      const base = baseOfFiles(themeFiles(theme));
      await writePublishBase(dir, { development: theme, production }, base.files, base.texts);
    }
    const barShown = progress.done();
    output.line(`${created ? 'Created' : 'Using'} the development theme ${themeName(manifest)}`);
    const { preview } = manifest.theme;
    const code = reportPull(output, result, barShown, { created });
    if (!serve) {
      // When serving, the watch says it once it is ready (with the folder it watches): not twice.
      output.line(`Preview: ${preview}`);
      if (values.open === true) await openInBrowser(preview, output);
      return code;
    }
    const live = await startLivePreview({ preview, port });
    output.line(`Live preview: ${live.url} (reloads after each change; Ctrl-C to stop)`);
    output.document({ event: 'serving', url: live.url, preview });
    if (values.open === true) await openInBrowser(live.url, output);
    const problems = new DevProblems((error) => describeError(error).message);
    const filter = await filterOf(context, dir);
    // One check at a time, and one more after it when events came meanwhile: it reads the folder as it is then.
    let checking: Promise<void> | undefined;
    let again = false;
    const check = (): void => {
      if (checking) {
        again = true;
        return;
      }
      checking = folderErrors(dir, filter)
        .then((errors) => {
          if (problems.checked(errors)) printCheckErrors(output, errors);
          live.problems(problems.list);
        })
        .catch(() => {})
        .finally(() => {
          checking = undefined;
          if (again) {
            again = false;
            check();
          }
        });
    };
    try {
      const watched = await watchUntilStopped(context, dir, (event) => {
        // Only what the server acknowledged reloads the page, never the save itself: a page reloaded before the
        // write would show the old version.
        if (event.type === 'pushed' || event.type === 'pulled') live.changed(event.file.path);
        if (problems.seen(event)) live.problems(problems.list);
        if (touchesFolder(event)) check();
      });
      await checking;
      // Stopped as watch stops, with watch's exit code: what the pull skipped or left was said when it ended.
      return watched;
    } finally {
      await live.close();
    }
  },
};

/** Stops the pull when the person would rather not use the development theme found. */
class NotUsed extends Error {}
