/**
 * What a document must be for the client to make an entity of it (spec §2.1, §2.2). An answer: a JSON object with
 * `_links`, an object that maps each relation to a link object (`href` a string; `templated` a boolean and
 * `method`, `type`, `title`, `name`, `docs` strings where present) or a list of them (`curies` is one). An embedded
 * resource: a JSON object, whose `_links` may be absent (an order's line items and a product's variants are parts
 * with no address of their own), checked as above when present. Both: `_class`, where present, a list of strings;
 * `_embedded`, where present, an object that maps each name to a list of embedded resources. The API sends
 * `_class` on every resource, but nothing the client does needs it, so a document without one is a resource of no
 * kind. A single embedded resource in place of a list of one is taken as that list (HAL allows both).
 */

/** The members of a link object the check knows, and their JSON types; only `href` must be there. */
const LINK_MEMBERS = {
  href: 'string',
  templated: 'boolean',
  method: 'string',
  type: 'string',
  title: 'string',
  name: 'string',
  docs: 'string',
} as const;

/** What `value` is, for a message: `null`, `an array`, `a string`… */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a.b`, or `a["svc:x"]` for a name that is not an identifier. */
function member(path: string, name: string): string {
  const step = /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
  return path ? `${path}${step}` : step.replace(/^\./, '');
}

function linkProblem(link: unknown, path: string): string | undefined {
  if (!isObject(link)) return `${path} is ${kind(link)}, not a link object`;
  for (const [name, type] of Object.entries(LINK_MEMBERS)) {
    const value = link[name];
    if ((value !== undefined || name === 'href') && typeof value !== type) {
      return `${member(path, name)} is ${kind(value)}, not a ${type}`;
    }
  }
  return undefined;
}

/** What a relation or an embedded name at `at` holds, one item or a list, as items each with its path. */
function members(entry: unknown, at: string): [unknown, string][] {
  // Array.from visits a sparse list's holes, which a restored document may have: each is checked (and refused).
  return Array.isArray(entry) ? Array.from(entry, (item, i) => [item, `${at}[${i}]`]) : [[entry, at]];
}

/**
 * The first problem of one document (the answer itself when `path` is empty, else one it embeds), its embedded
 * documents left to the caller (pushed onto `pending`).
 */
function documentProblem(
  value: unknown,
  path: string,
  pending: [unknown, string][],
  answer: boolean,
): string | undefined {
  const where = path || 'the document';
  if (!isObject(value)) return `${where} is ${kind(value)}, not a HAL resource`;
  const links = value._links;
  if (links === undefined && answer && !path) return `${where} has no _links, so it is not a HAL resource`;
  if (links !== undefined && !isObject(links)) return `${member(path, '_links')} is ${kind(links)}, not an object`;
  for (const [rel, entry] of Object.entries(links ?? {})) {
    for (const [link, at] of members(entry, member(member(path, '_links'), rel))) {
      const problem = linkProblem(link, at);
      if (problem) return problem;
    }
  }
  const classes = value._class;
  if (classes !== undefined && !(Array.isArray(classes) && classes.every((c) => typeof c === 'string'))) {
    return `${member(path, '_class')} is not a list of strings`;
  }
  const embedded = value._embedded;
  if (embedded === undefined) return undefined;
  if (!isObject(embedded)) return `${member(path, '_embedded')} is ${kind(embedded)}, not an object`;
  const inner = Object.entries(embedded).flatMap(([name, entry]) =>
    members(entry, member(member(path, '_embedded'), name)),
  );
  // Last first onto the stack, so that they are checked in the order of the document.
  pending.push(...inner.reverse());
  return undefined;
}

/**
 * What makes `value` no HAL resource, as a phrase naming where (`_embedded.templates[2] is null, not a HAL
 * resource`); `undefined` when it is one, embedded documents included. `answer`: whether `value` is an answer
 * (else a document kept from one, which may have been embedded). Walks without recursion, so that a document
 * nested without end is an answer, not a stack overflow.
 */
export function halProblem(value: unknown, answer = true): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const problem = documentProblem(next[0], next[1], pending, answer);
    if (problem) return problem;
  }
  return undefined;
}
