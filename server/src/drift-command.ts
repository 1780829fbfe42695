/**
 * `storefront-server drift --against URL`: where another API of this kind (the real one) disagrees with the
 * contract the reference server and its mocks implement. Exit codes: 0 in agreement, 1 on a disagreement, 2 for
 * bad flags, 3 when the API (or a part of it: a 5xx, a timeout) could not be read, 4 when `--output` cannot be
 * written, 70 when the check itself failed (a bug of ours). Whatever fails, one line is printed (and a bug's stack):
 * never an error object, whose cause may hold the request and its `Authorization` header.
 */
import { writeFile } from 'node:fs/promises';
import { readCommandArgs } from './command-args.js';
import { checkDrift, DEFAULT_DRIFT_SAMPLE } from './drift/check-drift.js';
import { formatJunit } from './drift/format-junit.js';
import { formatText } from './drift/format-text.js';
import type { DriftReport } from './drift/report.js';
import { DriftUnreadableError } from './drift/walk.js';
import { REMOTE_OPTIONS, REMOTE_USAGE, RemoteApiError, remoteFromArgs } from './remote/remote-api.js';

const USAGE = `Usage: storefront-server drift --against URL [options]

Reads the API at URL (its root, e.g. https://api.example.com/v1) by its links,
GETs only, and reports where its answers disagree with the contract (the
OpenAPI document of this server and its mocks): fields missing, extra or of
another type, relations missing, unexpected or with another method, _embedded
shapes, media types, validators and conditional reads. Ids, dates and other
values are not compared. Exit code 0 in agreement, 1 on a disagreement, 2 for
bad flags, 3 when the API or a part of it could not be read (a refused sign-in,
a 5xx, a timeout: listed as unchecked, not as disagreements), 4 when the
report cannot be written to --output, 70 when the check itself failed (a bug
of this tool, not the API: please report it).

  --against URL      the API's root
${REMOTE_USAGE}
  --format FORMAT    text (default), json or junit
  --output FILE      write the report to FILE instead of standard output
  --sample N         reads per resource kind (default ${DEFAULT_DRIFT_SAMPLE})
  --help             show this help
`;

const FORMATS = {
  text: formatText,
  json: (report: DriftReport) => `${JSON.stringify(report, null, 2)}\n`,
  junit: formatJunit,
};

function usage(message: string): number {
  console.error(`storefront-server drift: ${message}\n\n${USAGE}`);
  return 2;
}

export async function runDrift(argv: string[]): Promise<number> {
  const args = readCommandArgs('drift', USAGE, argv, {
    against: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string' },
    sample: { type: 'string' },
    ...REMOTE_OPTIONS,
  });
  if (typeof args === 'number') return args;
  const { values } = args;
  if (!values.against) return usage('--against URL is needed');
  const format = values.format ?? 'text';
  if (!Object.hasOwn(FORMATS, format)) return usage(`--format must be text, json or junit, got "${format}"`);
  const sample = values.sample === undefined ? DEFAULT_DRIFT_SAMPLE : Number(values.sample);
  if (!/^\d+$/.test(values.sample ?? '1') || !Number.isSafeInteger(sample) || sample < 1 || sample > 10_000) {
    return usage(`--sample must be a whole number from 1 to 10000, got "${values.sample}"`);
  }
  let remote: ReturnType<typeof remoteFromArgs>;
  try {
    remote = remoteFromArgs(values.against, values);
  } catch (error) {
    if (error instanceof RemoteApiError) return usage(error.message);
    throw error;
  }
  // Before minutes of reading: a report that cannot be written is said now. Appending nothing checks the path
  // (creating the file, as the end would) and leaves an earlier report whole should this run be cut short.
  if (values.output && !(await write(values.output, '', 'a'))) return CANNOT_WRITE;
  const formatted = (report: DriftReport) => FORMATS[format as keyof typeof FORMATS](report);
  let report: DriftReport;
  try {
    report = await checkDrift({ ...remote, sample });
  } catch (error) {
    if (error instanceof RemoteApiError) return usage(error.message);
    const unreadable = error instanceof DriftUnreadableError;
    // Only the message (and a bug's stack, which names our code only): the cause of an SDK error (ky's) holds the
    // request, its Authorization header included.
    const message = unreadable
      ? error.message
      : `the check stopped on an error of its own, not the API's (a bug: please report it): ${(error as Error)?.message ?? String(error)}`;
    const stack = !unreadable && error instanceof Error ? (error.stack?.split('\n').slice(1).join('\n') ?? '') : '';
    console.error(`storefront-server drift: ${message}${stack ? `\n${stack}` : ''}`);
    // CI keeps the report as its artifact: one saying that nothing could be read, rather than none (or an earlier
    // run's).
    const root = { kinds: ['Root'], url: values.against, reason: message };
    const empty = { against: values.against, kinds: {}, disagreements: [], skipped: [] };
    if (values.output) await write(values.output, formatted({ ...empty, unchecked: [root], uncheckedKinds: ['Root'] }));
    // Not 3: CI would take a failure of this tool for an outage of the API, and wait for the API to come back.
    return unreadable ? 3 : TOOL_FAILED;
  }
  const code = report.disagreements.length > 0 ? 1 : report.unchecked.length > 0 ? 3 : 0;
  if (!values.output) {
    process.stdout.write(formatted(report));
    return code;
  }
  if (!(await write(values.output, formatted(report)))) return CANNOT_WRITE;
  const count = report.disagreements.length;
  const unchecked = report.unchecked.length;
  console.error(
    `storefront-server drift: ${count} disagreement${count === 1 ? '' : 's'}${unchecked > 0 ? `, ${unchecked} read${unchecked === 1 ? '' : 's'} could not be made` : ''}; report in ${values.output}`,
  );
  return code;
}

/** The exit code of a report `--output` cannot write. */
const CANNOT_WRITE = 4;
/** The exit code of a failure of the check itself (a bug), `EX_SOFTWARE` of sysexits.h. */
const TOOL_FAILED = 70;

/** Writes `text` to `file` (`flag` 'a' appends); false (said on stderr) when it cannot. */
async function write(file: string, text: string, flag: 'w' | 'a' = 'w'): Promise<boolean> {
  try {
    await writeFile(file, text, { flag });
    return true;
  } catch (error) {
    console.error(`storefront-server drift: cannot write the report to ${file}: ${(error as Error).message}`);
    return false;
  }
}
