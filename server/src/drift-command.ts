/**
 * `storefront-server drift --against URL`: where another API of this kind (the real one) disagrees with the
 * contract the reference server and its mocks implement. Exit codes: 0 in agreement, 1 on a disagreement (or a
 * report that `--output` could not write, said as such), 2 for bad flags, 3 when the API cannot be read (a refused
 * sign-in, a network failure).
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
bad flags, 3 when the API cannot be read.

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
  let report: DriftReport;
  try {
    report = await checkDrift({ ...remoteFromArgs(values.against, values), sample });
  } catch (error) {
    if (error instanceof RemoteApiError) return usage(error.message);
    if (error instanceof DriftUnreadableError) {
      console.error(`storefront-server drift: ${error.message}`);
      return 3;
    }
    throw error;
  }
  const text = FORMATS[format as keyof typeof FORMATS](report);
  if (values.output) {
    try {
      await writeFile(values.output, text);
    } catch (error) {
      console.error(`storefront-server drift: cannot write ${values.output}: ${(error as Error).message}`);
      return 1;
    }
    const count = report.disagreements.length;
    console.error(
      `storefront-server drift: ${count} disagreement${count === 1 ? '' : 's'}; report in ${values.output}`,
    );
  } else process.stdout.write(text);
  return report.disagreements.length === 0 ? 0 : 1;
}
