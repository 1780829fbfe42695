/**
 * An answer's status and headers against the OpenAPI document: the media type of its 200, the headers it
 * requires of a 200 (the validators) and of a 304, each of the form the document gives. Values are not compared:
 * an `ETag` is another one on every API.
 */
import type { ContractView, HeaderRule } from './contract-view.js';
import type { Exchange } from './recorder.js';
import type { Disagreement } from './report.js';

type Found = Omit<Disagreement, 'count' | 'example'>;

/** A media type without its parameters, lower-cased: `application/json`. */
export const essence = (type: string | null | undefined) => (type ?? '').split(';', 1)[0]!.trim().toLowerCase();

function headerProblems(
  view: ContractView,
  kind: string,
  rules: HeaderRule[],
  exchange: Exchange,
  of: string,
): Found[] {
  const found: Found[] = [];
  for (const rule of rules) {
    const value = exchange.headers.get(rule.name);
    if (value === null) {
      if (rule.required) {
        found.push({
          kind,
          check: 'header',
          path: rule.name,
          message: `the contract requires ${rule.name} on ${of}; the answer has none`,
        });
      }
    } else if (!view.headerMatches(rule, value)) {
      found.push({
        kind,
        check: 'header',
        path: rule.name,
        message: `${rule.name} on ${of} is not of the contract's form: ${JSON.stringify(value.slice(0, 80))}`,
      });
    }
  }
  return found;
}

/** The status, media type and headers of a read of `name`; the body is compared apart. */
export function compareAnswer(view: ContractView, name: string, exchange: Exchange): Found[] {
  const kind = view.kindOf(name);
  if (exchange.status !== 200) {
    return [
      { kind, check: 'status', path: 'GET', message: `the read answered ${exchange.status}, the contract says 200` },
    ];
  }
  const rules = view.answer(name);
  if (!rules) return [];
  const found: Found[] = [];
  const type = essence(exchange.headers.get('content-type'));
  if (!rules.contentTypes.includes(type)) {
    found.push({
      kind,
      check: 'content-type',
      path: 'Content-Type',
      message: `the contract says ${rules.contentTypes.join(' or ')}; the answer is ${type || 'untyped'}`,
    });
  }
  found.push(...headerProblems(view, kind, rules.ok, exchange, 'a 200'));
  return found;
}

/**
 * The same read repeated with the first answer's validators (`If-None-Match`, `If-Modified-Since`): the
 * contract says 304, with the headers it requires of a 304. `first` is the first answer, `again` the repeat's.
 */
export function compareConditional(
  view: ContractView,
  name: string,
  first: Exchange,
  again: Exchange | undefined,
): Found[] {
  const kind = view.kindOf(name);
  const rules = view.answer(name);
  if (!rules?.notModified || first.status !== 200) return [];
  const validators = [
    first.headers.get('etag') && 'If-None-Match',
    first.headers.get('last-modified') && 'If-Modified-Since',
  ].filter(Boolean);
  if (validators.length === 0) return []; // The missing validators are reported as such: nothing to repeat with.
  if (!again || (again.conditional.ifNoneMatch === null && again.conditional.ifModifiedSince === null)) {
    return [
      {
        kind,
        check: 'conditional-read',
        path: 'GET',
        message: `the read could not be repeated with ${validators.join(' and ')}`,
      },
    ];
  }
  const sent = [
    again.conditional.ifNoneMatch !== null && 'If-None-Match',
    again.conditional.ifModifiedSince !== null && 'If-Modified-Since',
  ]
    .filter(Boolean)
    .join(' and ');
  if (again.status !== 304) {
    return [
      {
        kind,
        check: 'conditional-read',
        path: 'status',
        message: `repeated with ${sent} from the first answer, the read answered ${again.status}; the contract says 304`,
      },
    ];
  }
  return headerProblems(view, kind, rules.notModified, again, 'a 304').map((found) => ({
    ...found,
    check: 'conditional-read',
  }));
}
