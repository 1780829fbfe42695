import { createTwoFilesPatch } from 'diff';
import { type Command, ENV_OPTIONS, folderOf } from '../cli/command.js';
import { environmentsOf, runForEnvironments } from '../cli/environments.js';
import type { Output } from '../cli/output.js';
import { changeJson, themeJson } from '../cli/report.js';
import type { FileChange } from '../theme/changes.js';
import { readInside } from '../theme/confined.js';
import { limitOf } from '../theme/local.js';
import type { Workspace } from '../theme/workspace.js';
import { STATUS_DESCRIPTION, STATUS_ENVIRONMENTS, showStatus } from './status.js';

/**
 * The change as a unified diff, in the direction it would travel: the server's copy to the folder's for a
 * change made here (what push sends) or on both sides, the folder's to the server's for a change made there
 * (what pull brings). Assets are compared by digest.
 */
async function patchOf(workspace: Workspace, change: FileChange): Promise<string> {
  const there = workspace.remote.get(change.path);
  const outgoing = change.local !== undefined;
  if (change.kind === 'asset') {
    const digests = [there?.md5 ?? '(none)', workspace.local.files.get(change.path)?.md5 ?? '(none)'];
    const [from, to] = outgoing ? digests : digests.reverse();
    return `Binary file ${change.path}: MD5 ${from} -> ${to}\n`;
  }
  const here = await readInside(workspace.dir, change.path, limitOf(change.kind));
  const server = there?.kind === 'template' ? there.entity.properties.body : '';
  const folder = here?.toString('utf8') ?? '';
  const sides = [
    [`server/${change.path}`, server],
    [`folder/${change.path}`, folder],
  ] as const;
  const [from, to] = outgoing ? sides : [sides[1], sides[0]];
  return createTwoFilesPatch(from[0], to[0], from[1], to[1], undefined, undefined, { context: 3 });
}

function paintPatch(output: Output, patch: string): string {
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return output.paint('bold', line);
      if (line.startsWith('+')) return output.paint('green', line);
      if (line.startsWith('-')) return output.paint('red', line);
      return line.startsWith('@@') ? output.paint('cyan', line) : line;
    })
    .join('\n');
}

export const diff: Command = {
  name: 'diff',
  summary: 'status, with each change line by line',
  args: '[dir]',
  description: `${STATUS_DESCRIPTION}\nThen shows each changed template as a unified diff, in the direction it would travel (push for a\nchange made here, pull for one made on the server); assets by their MD5.\n${STATUS_ENVIRONMENTS}`,
  options: { ...ENV_OPTIONS },
  maxArgs: 1,
  async run(context) {
    const { output } = context;
    const environments = await environmentsOf(context, folderOf(context));
    if (environments) return runForEnvironments(context, diff, folderOf(context), environments, 'read', true);
    const { workspace, code } = await showStatus(context);
    const changes = [];
    for (const change of workspace.changes) {
      const patch = await patchOf(workspace, change);
      output.line();
      output.line(paintPatch(output, patch.trimEnd()));
      changes.push({ ...changeJson(change), patch });
    }
    output.document({ ok: code === 0, dir: workspace.dir, ...themeJson(workspace.manifest), changes });
    return code;
  },
};
