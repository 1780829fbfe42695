import { storedClient } from '../auth/stored-auth.js';
import { type Command, type CommandContext, ENV_OPTIONS, folderOf } from '../cli/command.js';
import { environmentsOf, runForEnvironments, unpushedEnvironment } from '../cli/environments.js';
import { filterOf } from '../cli/filter.js';
import {
  changeJson,
  changeLine,
  ignoredLine,
  oversizeLine,
  plural,
  printLinks,
  themeJson,
  themeName,
} from '../cli/report.js';
import { ExitCode } from '../errors.js';
import { printableWhole } from '../printable.js';
import { readManifest } from '../theme/manifest.js';
import { openWorkspace, readPulledFolder, type Workspace } from '../theme/workspace.js';

export const STATUS_DESCRIPTION = [
  'Compares the folder and its theme with what the last pull recorded, file by file: added, changed or deleted',
  'here, on the server, or on both sides differently (a conflict, exit code 3). Templates are compared by',
  'content, assets by MD5. Symbolic links are listed as ignored, never followed: a file replaced by one is not',
  'deleted here. Files of the theme whose names or sizes the API would refuse are listed as skipped; a file here',
  "over the API's size limit (64 KiB a template, 1 MiB an asset) is an error line, told by its size, never read.",
  'Files listed in .storefrontignore are left out.',
].join('\n');

/** The part of status's and diff's help about environments. */
export const STATUS_ENVIRONMENTS = [
  '',
  "With --env (or a default in the folder's storefront-themes.toml), compares the folder with each environment's",
  "theme instead, from that environment's own manifest and without its ignore/only files, a few at once, writing",
  'nothing: the shops are named first; one environment prints the usual lines, several a block each under one',
  'line per environment (--json: one object per line). The exit code is the worst of theirs.',
].join('\n');

/** Opens the folder's workspace and prints its status; the exit code tells whether there are conflicts. */
export async function showStatus(context: CommandContext): Promise<{ workspace: Workspace; code: ExitCode }> {
  const { output, store } = context;
  const { client } = await storedClient(store);
  const dir = folderOf(context);
  const { environment } = context;
  // Its first push starts it: "pull first" would bring the default's theme, or overwrite the folder.
  if (environment && !(await readManifest(dir, environment.manifestFile))) throw unpushedEnvironment(dir, environment);
  // An environment's base is its own manifest; what .storefrontignore (and the environment) leaves out is no change.
  const folder = await readPulledFolder(dir, environment?.manifestFile);
  const workspace = await openWorkspace(client, dir, folder, await filterOf(context, dir));
  const { changes, manifest, local } = workspace;
  output.line(`${themeName(manifest)}, pulled into ${printableWhole(workspace.dir)}`);
  for (const change of changes) output.line(changeLine(output, change));
  for (const path of local.invalid) output.line(ignoredLine(output, 'ignored (not a valid file name)', path));
  printLinks(output, local.links);
  for (const file of local.oversize) output.line(oversizeLine(output, file));
  for (const { path, name, reason } of workspace.refused) {
    output.line(ignoredLine(output, 'skipped on the server', `${path ?? name} (${reason})`));
  }
  const [toPush, toPull, conflicts] = [
    changes.filter((c) => c.local && !c.conflict).length,
    changes.filter((c) => c.remote && !c.conflict).length,
    changes.filter((c) => c.conflict).length,
  ];
  output.line(
    changes.length
      ? `${plural(changes.length, 'change')}: ${toPush} to push, ${toPull} to pull, ${plural(conflicts, 'conflict')}`
      : 'Up to date: nothing changed here or on the server since the last pull',
  );
  return { workspace, code: conflicts ? ExitCode.conflicts : ExitCode.ok };
}

export const status: Command = {
  name: 'status',
  summary: 'what changed here and on the server since the last pull',
  args: '[dir]',
  description: `${STATUS_DESCRIPTION}\n${STATUS_ENVIRONMENTS}`,
  options: { ...ENV_OPTIONS },
  maxArgs: 1,
  async run(context) {
    const environments = await environmentsOf(context, folderOf(context));
    if (environments) return runForEnvironments(context, status, folderOf(context), environments, 'read', true);
    const { workspace, code } = await showStatus(context);
    context.output.document({
      ok: code === 0,
      dir: workspace.dir,
      ...themeJson(workspace.manifest),
      changes: workspace.changes.map(changeJson),
      invalid: workspace.local.invalid,
      links: workspace.local.links,
      oversize: workspace.local.oversize,
      refused: workspace.refused,
    });
    return code;
  },
};
