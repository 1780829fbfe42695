/**
 * What `drift` compares answers with: the OpenAPI document the server builds (its component schemas, the
 * headers and media types of each GET's answers) and the contract's representations it is built from (which
 * relation leads to which representation, what each embeds). Nothing here describes the API a second time.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { apiRoutes } from '../api/routes.js';
import { CONTRACT } from '../openapi/contract.js';
import type { RepresentationSpec, Schema } from '../openapi/contract-types.js';
import { openApiDocument } from '../openapi/document.js';
import { componentName } from '../openapi/hal-schemas.js';

const DOCUMENT_ID = 'https://storefront.invalid/openapi.json';

/** A response header the document describes for an answer. */
export interface HeaderRule {
  name: string;
  required: boolean;
  schema: Schema;
}

/** What the document says of a GET's answers for one representation. */
export interface AnswerRules {
  /** Media types of the 200's body (without parameters). */
  contentTypes: string[];
  /** Headers of the 200. */
  ok: HeaderRule[];
  /** Headers of the 304; `undefined` when the document gives the read no 304. */
  notModified: HeaderRule[] | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as the JSON it is
type Json = any;

/** The contract, as drift reads it. */
export class ContractView {
  readonly document: Json;
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #answers = new Map<string, AnswerRules>();

  /** The document of a service at `url` (its API root): only its addresses depend on it. */
  constructor(url: string) {
    const { origin } = new URL(url);
    const baseUrl = url.replace(/\/+$/, '');
    const addresses = { origin, baseUrl, authUrl: origin, staticUrl: `${origin}/static` };
    this.document = openApiDocument(addresses, { api: apiRoutes });
    this.#ajv.addSchema({ ...this.document, $id: DOCUMENT_ID });
    this.#indexAnswers();
  }

  /** The representation of the contract by name (`product`, `results:productSummary` is not one). */
  representation(name: string): RepresentationSpec | undefined {
    return Object.hasOwn(CONTRACT.representations, name) ? CONTRACT.representations[name] : undefined;
  }

  /**
   * Where following `rel` from a `from` leads: a representation name, `results:<name>`, `document` (not JSON) or
   * `none`; `undefined` when the contract gives `from` no such relation or it may lead to several kinds.
   */
  target(from: string, rel: string): { method: string; target: string } | undefined {
    const relation = this.relations(from)[rel];
    if (!relation || typeof relation.target !== 'string') return undefined;
    return { method: relation.method, target: relation.target };
  }

  /** The relations the contract gives a representation or a results entity (its paging links). */
  relations(name: string): Record<string, { method: string; target: string | string[] }> {
    if (name.startsWith('results:')) {
      const paging = ['self', 'next', 'prev', 'first', 'last'];
      return Object.fromEntries(paging.map((rel) => [rel, { method: 'get', target: name }]));
    }
    return this.representation(name)?.relations ?? {};
  }

  /** What `name` embeds: member → representation name (a results entity's `items`). */
  embedded(name: string): Record<string, string> {
    if (name.startsWith('results:')) return { items: name.slice('results:'.length) };
    return this.representation(name)?.embedded ?? {};
  }

  /** The component schema's name of a representation or results entity (`Product`, `ProductSummaryResults`). */
  kindOf(name: string): string {
    return componentName(name);
  }

  /** Every way `value` is not of the component schema of `name` (Ajv's errors; empty when it is). */
  validate(name: string, value: unknown): ErrorObject[] {
    const pointer = `/components/schemas/${this.kindOf(name)}`;
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.#validators.set(pointer, validate);
    }
    return validate(value) ? [] : [...(validate.errors ?? [])];
  }

  /** What the document says of a GET answering `name`; `undefined` when no GET answers it. */
  answer(name: string): AnswerRules | undefined {
    return this.#answers.get(this.kindOf(name));
  }

  #deref(value: Json): Json {
    let out = value;
    while (out && typeof out.$ref === 'string') {
      out = (out.$ref as string)
        .slice(2)
        .split('/')
        .reduce((node: Json, part: string) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], this.document);
    }
    return out;
  }

  #headers(response: Json): HeaderRule[] {
    return Object.entries((response?.headers ?? {}) as Record<string, Json>).map(([name, header]) => {
      const rule = this.#deref(header);
      return { name, required: rule?.required === true, schema: this.#deref(rule?.schema ?? {}) };
    });
  }

  /** The first GET answering each component: the rules of its 200 and 304, shared by every GET of it. */
  #indexAnswers(): void {
    for (const item of Object.values(this.document.paths as Record<string, Json>)) {
      const ok = this.#deref(item.get?.responses?.['200']);
      if (!ok?.content) continue;
      const ref: unknown = ok.content['application/json']?.schema?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) continue;
      const component = ref.slice('#/components/schemas/'.length);
      if (this.#answers.has(component)) continue;
      const notModified = item.get.responses['304'];
      this.#answers.set(component, {
        contentTypes: Object.keys(ok.content),
        ok: this.#headers(ok),
        notModified: notModified ? this.#headers(this.#deref(notModified)) : undefined,
      });
    }
  }

  /** Whether `value` is of a header's schema (its `pattern`, `const`). */
  headerMatches(rule: HeaderRule, value: string): boolean {
    const key = JSON.stringify(rule.schema);
    let validate = this.#validators.get(key);
    if (!validate) {
      validate = this.#ajv.compile(rule.schema);
      this.#validators.set(key, validate);
    }
    return validate(value);
  }
}
