/**
 * Checks responses against the service's OpenAPI document, independently of the server's code: the request's
 * path and method find the operation (a path the document does not know must be a 404, a method it does not
 * list a 405 with `Allow`), the status must be one the operation documents, the headers it describes must be
 * there and of their schema, and the body must be of the media type and JSON Schema it gives (ajv, 2020-12).
 * The document's own prose rules are applied as written: `.json` is optional on the API's paths, `.jsonp` wraps
 * the same JSON in a call, HEAD answers as GET without a body.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as the JSON it is
type Json = any;

/** One response as seen on the wire. */
export interface Observed {
  method: string;
  /** Absolute URL of the request. */
  url: string;
  status: number;
  headers: Headers;
  /** The body's text ('' when none). */
  text: string;
}

const DOCUMENT_ID = 'https://storefront.test/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** JSON Pointer escaping of one token (RFC 6901). */
const token = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

interface PathEntry {
  template: string;
  segments: string[];
  item: Json;
}

/** A value at a JSON path of `data`, shortened for a message. */
function valueAt(data: unknown, pointer: string): string {
  let value: Json = data;
  for (const part of pointer.split('/').slice(1)) value = value?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Ajv's errors, one line each, with the offending value: readable where a raw dump is not. */
function describeErrors(errors: readonly ErrorObject[], data: unknown): string {
  return errors
    .slice(0, 12)
    .map((e) => {
      const extra =
        e.keyword === 'additionalProperties'
          ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
          : '';
      const message = e.keyword === 'false schema' ? 'must not be present' : e.message;
      return `  at ${e.instancePath || '/'}: ${message}${extra} [${e.schemaPath}]\n    value: ${valueAt(data, e.instancePath)}`;
    })
    .join('\n');
}

export class Conformance {
  /** How many responses were checked. */
  checked = 0;
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  readonly #paths: PathEntry[];
  readonly #base: string;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.#ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    // `{base_url}`'s path: the root's, the one path the API's rules (optional `.json`, `.jsonp`) apply under.
    const root = Object.entries(document.paths).find(([, item]: [string, Json]) => item.get?.operationId === 'getRoot');
    if (!root) throw new Error('the document has no getRoot operation');
    this.#base = root[0];
    this.#paths = Object.entries(document.paths).map(([template, item]) => ({
      template,
      segments: this.#normalise(template).split('/'),
      item,
    }));
  }

  /** An API path without its optional `.json` (or `.jsonp`) suffix and trailing slash. */
  #normalise(path: string): string {
    if (!path.startsWith(this.#base)) return path;
    return path.replace(/\/+$/, '').replace(/\.jsonp?$/, '');
  }

  /**
   * The documented path `path` (percent-encoded, without query) is an instance of, with its parameters. `.json`
   * being optional, one API path may be described under both forms (the endpoint list's GET at
   * `webhook_endpoints.json`, as linked, its POST at `webhook_endpoints`): the one that documents `method`, when
   * given and one does.
   */
  match(path: string, method?: string): { template: string; item: Json; params: Record<string, string> } | undefined {
    const parts = this.#normalise(path).split('/');
    const fits = (entry: PathEntry, rest: boolean) => {
      const { segments } = entry;
      if (
        rest ? parts.length <= segments.length || !segments.at(-1)!.startsWith('{') : parts.length !== segments.length
      ) {
        return false;
      }
      return segments.every((segment, i) => segment.startsWith('{') || segment === parts[i]);
    };
    // A last parameter may hold slashes (a file name) only when no path fits segment by segment.
    const verb = method?.toLowerCase() === 'head' ? 'get' : method?.toLowerCase();
    const find = (rest: boolean) => {
      const fitting = this.#paths.filter((e) => fits(e, rest));
      return fitting.find((e) => verb !== undefined && e.item[verb]) ?? fitting[0];
    };
    const entry = find(false) ?? find(true);
    if (!entry) return undefined;
    const params: Record<string, string> = {};
    entry.segments.forEach((segment, i) => {
      if (!segment.startsWith('{')) return;
      const last = i === entry.segments.length - 1;
      params[segment.slice(1, -1)] = last ? parts.slice(i).join('/') : parts[i]!;
    });
    return { template: entry.template, item: entry.item, params };
  }

  #deref(value: Json): Json {
    let out = value;
    while (out && typeof out.$ref === 'string') {
      out = out.$ref
        .slice(2)
        .split('/')
        .reduce((node: Json, part: string) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], this.document);
    }
    return out;
  }

  #validator(pointer: string): ValidateFunction {
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.#validators.set(pointer, validate);
    }
    return validate;
  }

  /** The ways `observed` disagrees with the document; empty when it does not. */
  problems(observed: Observed): string[] {
    this.checked++;
    const url = new URL(observed.url);
    const { status, headers } = observed;
    const entry = this.match(url.pathname, observed.method);
    if (!entry) {
      return status === 404
        ? []
        : [`the document has no path for ${url.pathname}, yet the answer is ${status}, not 404`];
    }
    const method = observed.method.toLowerCase();
    if (method === 'options') return status === 204 ? [] : [`a CORS preflight answered ${status}, not 204`];
    const verb = method === 'head' ? 'get' : method;
    if (verb !== 'get' && url.pathname.startsWith(this.#base) && url.pathname.endsWith('.jsonp')) {
      // JSONP is a form of GET only: any other verb on a `.jsonp` path is not allowed there.
      return status === 405 ? [] : [`${observed.method} on a .jsonp path answered ${status}, not 405`];
    }
    const operation = entry.item[verb];
    if (!operation) {
      const documented = METHODS.filter((m) => entry.item[m]).map((m) => m.toUpperCase());
      if (status !== 405)
        return [`${entry.template} documents no ${observed.method}, yet the answer is ${status}, not 405`];
      const allow = new Set((headers.get('allow') ?? '').split(',').map((m) => m.trim()));
      const missing = documented.filter((m) => !allow.has(m));
      return missing.length
        ? [`405 on ${entry.template}: Allow (${headers.get('allow')}) lacks ${missing.join(', ')}`]
        : [];
    }
    const where = `${observed.method} ${entry.template} (${operation.operationId})`;
    const key = String(status);
    if (!operation.responses[key]) {
      return [
        `${where}: status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`,
      ];
    }
    const response = this.#deref(operation.responses[key]);
    const problems: string[] = [];
    for (const [name, reference] of Object.entries(response.headers ?? {})) {
      const header = this.#deref(reference);
      const value = headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where} ${status}: header ${name} is missing`);
        continue;
      }
      const pattern = header.schema?.pattern;
      if (pattern && !new RegExp(pattern).test(value))
        problems.push(`${where} ${status}: header ${name}: ${value} does not match ${pattern}`);
    }
    const bodyless = method === 'head' || status === 204 || status === 304;
    if (bodyless) {
      if (observed.text !== '') problems.push(`${where} ${status}: a body where none is sent`);
      return problems;
    }
    if (!response.content) return problems;
    const type = (headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
    // A `.jsonp` request with a usable callback: the documented JSON, wrapped (a bad callback is a plain JSON 400).
    const jsonp = type === 'text/javascript' && url.pathname.startsWith(this.#base) && url.pathname.endsWith('.jsonp');
    const mediaType = jsonp ? 'application/json' : type;
    const types = Object.keys(response.content);
    const described = types.find((t) => t === mediaType) ?? types.find((t) => t === '*/*');
    if (!described)
      return [...problems, `${where} ${status}: content type ${type} is not documented (${types.join(', ')})`];
    if (described !== 'application/json') return problems;
    let body: unknown;
    try {
      body = JSON.parse(jsonp ? /^\/\*\*\/[\w$.]+\(([\s\S]*)\);$/.exec(observed.text)![1]! : observed.text);
    } catch {
      return [
        ...problems,
        `${where} ${status}: the body is not JSON${jsonp ? 'P' : ''}: ${observed.text.slice(0, 200)}`,
      ];
    }
    const pointer = `/paths/${token(entry.template)}/${verb}/responses/${key}`;
    const schemaPointer = operation.responses[key].$ref
      ? `${operation.responses[key].$ref.slice(1)}/content/application~1json/schema`
      : `${pointer}/content/application~1json/schema`;
    const validate = this.#validator(schemaPointer);
    if (!validate(body))
      problems.push(
        `${where} ${status}: the body does not match its schema\n${describeErrors(validate.errors ?? [], body)}`,
      );
    return problems;
  }
}
