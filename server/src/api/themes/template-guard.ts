/**
 * The lost-update guard of template writes: `last_updated_on`, the `updated_on` the client last saw. Sent as that
 * string, it names one version exactly (every write moves `updated_on` by at least a millisecond, see
 * `nextTimestamp`). Sent as epoch seconds (older clients), it names a second: accepted only when the template had
 * one version in that second, since a client holding that second may otherwise hold the older one (the reason
 * `Last-Modified` turns weak then). A refused guard is a 422 on `updated_on`, and nothing is written.
 */
import { validationError } from '../../http/http-error.js';
import type { TemplateRow } from '../../store/types.js';

/**
 * What template writes keep on a row besides the store's fields: the `updated_on` of the version this one
 * replaced, which tells whether a second saw more than one version. Absent on a template never updated, and on
 * rows last written before it was kept (taken as one version in their second).
 */
export interface TemplateHistory {
  previous_updated_on?: string;
}

/** A template row with what the guard keeps on it. */
export type GuardedTemplateRow = TemplateRow & TemplateHistory;

/** `last_updated_on` as a client sends it: the `updated_on` it saw, or that instant in whole epoch seconds. */
export type LastSeen = number | string;

/** `updated_on` as the API writes it: ISO 8601 UTC with milliseconds. */
const UPDATED_ON = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const secondOf = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function stale(template: TemplateRow, lastSeen: LastSeen): Error {
  return validationError(
    'updated_on',
    `the template changed since you last saw it (now ${template.updated_on}, you sent ${lastSeen}); reload it and retry`,
  );
}

/**
 * A 422 on `last_updated_on` for a string that is not an `updated_on`: checked with the rest of the body, also
 * where no template has that name yet, so that a client's mistake shows on its first write.
 */
export function checkLastSeen(lastSeen: LastSeen | undefined): void {
  if (typeof lastSeen === 'string' && (!UPDATED_ON.test(lastSeen) || Number.isNaN(Date.parse(lastSeen)))) {
    throw validationError(
      'last_updated_on',
      'must be the updated_on you last saw (e.g. 2025-01-31T12:00:00.123Z), or it in epoch seconds',
    );
  }
}

/**
 * Throws a 422 on `updated_on` unless the client saw `template` as it is now (`lastSeen` checked by
 * {@link checkLastSeen}). `lastSeen` undefined: an unguarded write, allowed.
 */
export function assertLastSeen(template: GuardedTemplateRow, lastSeen: LastSeen | undefined): void {
  if (lastSeen === undefined) return;
  if (typeof lastSeen === 'string') {
    if (Date.parse(lastSeen) !== Date.parse(template.updated_on)) throw stale(template, lastSeen);
    return;
  }
  const second = secondOf(template.updated_on);
  if (lastSeen !== second) throw stale(template, lastSeen);
  const previous = template.previous_updated_on;
  if (previous !== undefined && secondOf(previous) === second) {
    throw validationError(
      'updated_on',
      `the template changed more than once within second ${second}, so epoch seconds cannot tell which version you ` +
        'saw; reload it and send its updated_on as last_updated_on (to the millisecond), or If-Match with its ETag',
    );
  }
}
