/** What `publish` says when it was cut short: what production got, what it did not, and how to finish. */
import { describeError } from '../cli/describe-error.js';
import { InterruptedError } from '../cli/interrupt.js';
import type { Output } from '../cli/output.js';
import { plural, printFiles } from '../cli/report.js';
import { ExitCode } from '../errors.js';
import { printable, printableWhole } from '../printable.js';
import type { FileKind } from '../theme/layout.js';
import type { PublishCutError } from '../theme/publish-cut.js';
import type { JournalHeader } from '../theme/publish-journal.js';
import type { PublishChange } from '../theme/publish-plan.js';
import type { FileResult } from '../theme/results.js';

/** A change of the publish not in production. */
interface NotPublished {
  path: string;
  kind: FileKind;
  /** What it was to do. */
  action: PublishChange['action'];
  /** Whether its request went (then it may be in production all the same: the next publish reads it). */
  sent: boolean;
  /** Why it is not there: refused (a conflict, a failure), sent without an answer, or not sent. */
  why: string;
}

const TO_DO: Record<PublishChange['action'], string> = {
  created: 'to create',
  updated: 'to update',
  deleted: 'to delete',
};

/** Why it stopped, in words: the signal, or the failure that cut it. */
function reasonOf(cause: unknown): string {
  if (cause instanceof InterruptedError) return cause.message;
  return describeError(cause).message;
}

/**
 * Prints the report of a cut publish (lines, the one-line error on standard error, the JSON document) and
 * returns its exit code. `header` is the journal's: the whole publish, earlier runs of it included.
 */
export function reportCut(
  output: Output,
  error: PublishCutError,
  context: { target: string; journal: string; header: JournalHeader; json: object },
): ExitCode {
  const { target, journal, header, json } = context;
  const answered = new Map(error.files.map((file) => [file.path, file]));
  const cut = new Map(error.unfinished.map((change) => [change.path, change]));
  const refused = (path: string) => ['conflict', 'failed'].includes(answered.get(path)?.action ?? '');
  // The whole publish: changes made by earlier runs of it count as published too.
  const published: FileResult[] = header.changes
    .filter((c) => !cut.has(c.path) && !refused(c.path))
    .map((c) => answered.get(c.path) ?? { path: c.path, kind: c.kind, action: c.action });
  const notPublished: NotPublished[] = header.changes
    .filter((c) => cut.has(c.path) || refused(c.path))
    .map(({ path, kind, action }) => {
      const answer = answered.get(path);
      const sent = cut.get(path)?.sent ?? true;
      const why = answer
        ? `${answer.action}: ${answer.message}`
        : sent
          ? 'sent, no answer: it may be in production'
          : 'not sent';
      return { path, kind, action, sent, why };
    });
  const reason = reasonOf(error.cause);
  const total = published.length + notPublished.length;
  output.line(
    `Publishing to ${target} was cut short (${reason}): production holds ${published.length} of the ${total} changes, part old, part new`,
  );
  output.line(`Published (${published.length}):`);
  printFiles(output, published);
  output.line(`Not published (${notPublished.length}):`);
  for (const file of notPublished) {
    output.line(
      `  ${output.paint('yellow', TO_DO[file.action].padEnd(9))} ${printable(file.path)} (${printableWhole(file.why)})`,
    );
  }
  output.line(`Run storefront-themes publish again to finish: it resumes from the journal ${journal}`);
  const message = `publishing was cut short (${reason}): ${published.length} of ${plural(total, 'change')} published, ${notPublished.length} not; run publish again to finish`;
  output.note(`storefront-themes publish: ${message}`);
  output.document({
    ok: false,
    interrupted: true,
    error: { message, exitCode: ExitCode.interrupted },
    ...json,
    files: error.files,
    published,
    notPublished,
    journal,
    started_on: header.started_on,
  });
  return ExitCode.interrupted;
}
