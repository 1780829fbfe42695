/** The result of `checkDrift`: what was read, per resource kind, and every way the answers disagree with the contract. */

/**
 * The kinds of disagreement, each a check drift makes on every answer of a kind:
 * - `field-missing`, `field-extra`, `field-type`, `field-value`: the resource's own members (and those of the
 *   objects it embeds) against the contract's schema; `field-value` is a value outside an enumeration or pattern,
 *   or a link's `href` that is no URL.
 * - `relation-missing` (a link the contract requires, or one no sampled resource of the kind carried),
 *   `relation-unexpected` (a relation the contract does not give the kind), `relation-method` (a link whose
 *   `method` is not the contract's).
 * - `embedded-shape`: an `_embedded` member missing, unexpected, or not an array.
 * - `content-type`: the answer's media type is not the one the contract gives.
 * - `header`: a header the contract requires of a read is missing, or not of its form.
 * - `conditional-read`: the same GET repeated with the first answer's validators did not answer 304 (or its
 *   304 lacked a header the contract requires of it).
 * - `status`: a read the contract describes did not answer 200 (a 4xx, or a 2xx or 3xx other than 200). A 5xx,
 *   a timeout or no answer is an outage, not a disagreement: {@link DriftReport.unchecked} lists it.
 */
export type DriftCheck =
  | 'field-missing'
  | 'field-extra'
  | 'field-type'
  | 'field-value'
  | 'relation-missing'
  | 'relation-unexpected'
  | 'relation-method'
  | 'embedded-shape'
  | 'content-type'
  | 'header'
  | 'conditional-read'
  | 'status';

/** Every check, in the order reports list them. */
export const DRIFT_CHECKS: readonly DriftCheck[] = [
  'status',
  'content-type',
  'header',
  'conditional-read',
  'field-missing',
  'field-extra',
  'field-type',
  'field-value',
  'relation-missing',
  'relation-unexpected',
  'relation-method',
  'embedded-shape',
];

/** One way the live API disagrees with the contract, however many answers showed it. */
export interface Disagreement {
  /** The resource kind, by its schema's name in the OpenAPI document (`Product`, `ProductVariant`). */
  kind: string;
  check: DriftCheck;
  /** Where in the kind's representation (`_embedded.variants[].sku`, `_links.self`), or the header's name. */
  path: string;
  /** What the contract says and what the API answered. */
  message: string;
  /** A URL whose answer shows it. */
  example: string;
  /** How many answers showed it. */
  count: number;
}

/** What was read of one kind. */
export interface KindSummary {
  /** Representations of this kind checked (read, or embedded in what was read). */
  checked: number;
  /** Answers read of this kind (its own GETs). */
  reads: number;
}

/**
 * A read that could not be made (a 5xx, a 429 retried to the end, a timeout, a reset connection): an outage of
 * the API, not a change of its contract, so it is no disagreement; what that read would have shown is unchecked.
 */
export interface UncheckedRead {
  /** The kinds the read would have checked: its own and those it embeds (`OrderList`, `Order`, `OrderLineItem`). */
  kinds: string[];
  url: string;
  /** Why, in one line (`answered 500`, `GET … timed out after 30000 ms`). */
  reason: string;
}

/** The report of one `checkDrift` run (the `--format json` output). */
export interface DriftReport {
  /** The API root compared. */
  against: string;
  /** Per kind, in name order. */
  kinds: Record<string, KindSummary>;
  /** Every disagreement, by kind, check and path. */
  disagreements: Disagreement[];
  /** Reads that could not be made (outages): what they would have checked is not known. Empty: everything read. */
  unchecked: UncheckedRead[];
  /** Kinds that only unchecked reads would have checked (none of them was seen elsewhere), in name order. */
  uncheckedKinds: string[];
  /** Links not followed and why (a template needing variables, another origin, a write): for the curious. */
  skipped: { url: string; reason: string }[];
}

/** Gathers disagreements as they are found, once per kind, check and path. */
export class DriftCollector {
  readonly #found = new Map<string, Disagreement>();
  readonly #kinds = new Map<string, KindSummary>();
  readonly #skipped = new Map<string, string>();
  readonly #unchecked = new Map<string, UncheckedRead>();

  /** Notes a representation of `kind` checked; `read` when it was an answer of its own. */
  saw(kind: string, read: boolean): void {
    const summary = this.#kinds.get(kind) ?? { checked: 0, reads: 0 };
    summary.checked++;
    if (read) summary.reads++;
    this.#kinds.set(kind, summary);
  }

  add(found: Omit<Disagreement, 'count'>): void {
    const key = `${found.kind}\0${found.check}\0${found.path}`;
    const known = this.#found.get(key);
    if (known) known.count++;
    else this.#found.set(key, { ...found, count: 1 });
  }

  /** Notes a read of `url` that could not be made, and the kinds it would have checked. */
  unchecked(kinds: string[], url: string, reason: string): void {
    if (!this.#unchecked.has(url)) this.#unchecked.set(url, { kinds, url, reason });
  }

  skip(url: string, reason: string): void {
    if (!this.#skipped.has(url)) this.#skipped.set(url, reason);
  }

  report(against: string): DriftReport {
    const order = (check: DriftCheck) => DRIFT_CHECKS.indexOf(check);
    const disagreements = [...this.#found.values()].sort(
      (a, b) => a.kind.localeCompare(b.kind) || order(a.check) - order(b.check) || a.path.localeCompare(b.path),
    );
    const kinds = Object.fromEntries([...this.#kinds.entries()].sort(([a], [b]) => a.localeCompare(b)));
    const skipped = [...this.#skipped.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([url, reason]) => ({ url, reason }));
    const unchecked = [...this.#unchecked.values()].sort((a, b) => a.url.localeCompare(b.url));
    const uncheckedKinds = [...new Set(unchecked.flatMap((read) => read.kinds))]
      .filter((kind) => !this.#kinds.has(kind))
      .sort();
    return { against, kinds, disagreements, unchecked, uncheckedKinds, skipped };
  }
}
