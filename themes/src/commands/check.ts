import { printProblems } from '../cli/check-report.js';
import { type Command, ENV_OPTIONS, folderOf } from '../cli/command.js';
import { environmentsOf, runForEnvironments } from '../cli/environments.js';
import { filterOf } from '../cli/filter.js';
import { ExitCode, UsageError } from '../errors.js';
import { checkTheme } from '../theme/check.js';
import { sarifLog, sourceRoot } from '../theme/check-sarif.js';
import { folderCheckInput } from '../theme/check-sources.js';

const FORMATS = ['text', 'sarif'] as const;

export const check: Command = {
  name: 'check',
  summary: 'find problems in the folder before they reach the shop',
  args: '[dir]',
  description: [
    'Reads the theme folder (default: the working directory) as push would send it, without the server, and',
    'reports: references to templates, partials and assets the theme lacks (src, href, srcset in HTML; url() and',
    '@import in CSS), HTML whose elements are not closed in order, CSS that does not parse, a missing layout.html,',
    "files over the API's size limits (a template 64 KiB, an asset 1 MiB, 1000 templates, 300 assets, 64 MiB of",
    "assets), assets whose bytes are not a file of their extension's kind (a JPEG named .png, an empty file),",
    'names the API refuses, conflict markers left by pull --merge; names equal but for case are warnings.',
    'Exit code 1 when there is an error. Files listed in .storefrontignore are not read. publish runs the same',
    'checks on the development theme first.',
    '',
    '--format sarif prints a SARIF 2.1.0 log instead (for GitHub code scanning), paths relative to the repository',
    'holding the folder (the nearest folder above it with .git). --json prints a JSON document.',
    '',
    '--env checks the folder as each environment of storefront-themes.toml would get it (its ignore and only',
    'patterns): one line per environment.',
  ].join('\n'),
  options: {
    format: {
      type: 'string',
      value: 'FORMAT',
      description: 'text (default) or sarif (SARIF 2.1.0, for code scanning)',
    },
    ...ENV_OPTIONS,
  },
  maxArgs: 1,
  async run(context) {
    const { output } = context;
    const dir = folderOf(context);
    const format = context.values.format ?? 'text';
    if (!FORMATS.includes(format as (typeof FORMATS)[number])) {
      throw new UsageError(`--format takes ${FORMATS.join(' or ')}, not ${JSON.stringify(format)} (JSON: --json)`);
    }
    if (format === 'sarif' && output.json) throw new UsageError('--format sarif and --json exclude each other');
    const environments = await environmentsOf(context, dir);
    if (environments && format === 'sarif' && environments.length > 1) {
      throw new UsageError('--format sarif takes one environment (one log per run)');
    }
    if (environments) return runForEnvironments(context, check, dir, environments, 'local');
    const input = await folderCheckInput(dir, await filterOf(context, dir));
    const problems = checkTheme(input);
    const errorCount = problems.filter((p) => p.severity === 'error').length;
    if (format === 'sarif') {
      output.stdout.write(`${JSON.stringify(sarifLog(problems, dir, await sourceRoot(dir)), null, 2)}\n`);
      return errorCount ? ExitCode.failure : ExitCode.ok;
    }
    const errors = printProblems(output, problems, input.files.length);
    output.document({ ok: errors === 0, dir, files: input.files.length, problems });
    return errors ? ExitCode.failure : ExitCode.ok;
  },
};
