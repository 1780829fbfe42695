/**
 * Reading a live API by its links, through the SDK: from the root, every relation the contract says a GET
 * follows, to a bounded sample of each kind, each read compared with the contract as it arrives and repeated with
 * its validators. Never a write: a link is followed only when both the contract and the link say GET.
 */
import {
  type Client,
  type Entity,
  type HalResource,
  mapLimited,
  StorefrontError,
  TemplateVariableError,
} from '@storefront-platform/sdk';
import type { RemoteApi } from '../remote/remote-api.js';
import { describeRemoteFailure } from '../remote/remote-failure.js';
import { compareAnswer, compareConditional, essence } from './compare-answer.js';
import { compareBody } from './compare-body.js';
import { isConditional } from './conditional-relations.js';
import type { ContractView } from './contract-view.js';
import type { Exchange, Recorder } from './recorder.js';
import type { DriftCollector } from './report.js';

/**
 * Whether a read's answer (or its absence) is an outage of the API, not a change of its contract: no answer (a
 * reset, a timeout), a 5xx, or a 408 or 429 the SDK retried to the end. What such a read would show is unchecked.
 */
const isOutage = (exchange: Exchange | undefined) =>
  exchange === undefined || exchange.status >= 500 || exchange.status === 408 || exchange.status === 429;

/** The error the SDK rejected a read with, kept for the report; anything else (a bug) goes on up. */
function readFailure(error: unknown): StorefrontError {
  if (error instanceof StorefrontError) return error;
  throw error;
}

/** The API could not be read at all (its root: a refused sign-in, a network failure): no report can be made. */
export class DriftUnreadableError extends Error {
  override name = 'DriftUnreadableError';
}

/**
 * A link to follow: `url`, expected to answer representation `name` (or, for `document`, a file or page of the
 * link's `type`), found on a resource read as `source`.
 */
interface Pending {
  name: string;
  url: string;
  from: Entity;
  rel: string;
  source: string;
  type: string | undefined;
}

type Json = Record<string, unknown>;

const linksOf = (document: unknown) => ((document as Json | undefined)?._links ?? {}) as Record<string, unknown>;

/** The walk of one API. */
export class DriftWalk {
  /** Reads made per representation name. */
  readonly #reads = new Map<string, number>();
  /** Reads and document checks made per source representation and relation, for links to documents. */
  readonly #documents = new Map<string, number>();
  readonly #seen = new Set<string>();
  /** Per representation name: how many were checked, and the relations any of them carried. */
  readonly #relations = new Map<string, { checked: number; example: string; carried: Set<string> }>();

  constructor(
    readonly client: Client,
    readonly recorder: Recorder,
    readonly view: ContractView,
    readonly collector: DriftCollector,
    readonly sample: number,
    readonly origin: string,
    readonly concurrency: number,
  ) {}

  /** Walks the API of `remote` (its `login` names the user to check when the sign-in is refused). */
  async run(remote: Pick<RemoteApi, 'url' | 'login'>): Promise<void> {
    const url = new URL(remote.url).href;
    let root: Entity | undefined;
    try {
      root = (await this.client.root()) as unknown as Entity;
    } catch (error) {
      readFailure(error);
      // A root the SDK refused although it answered 200 (another media type, a body it cannot take) is drift,
      // reported with the rest; anything else (a refused sign-in, a 401, no answer) leaves nothing to compare.
      if (this.recorder.last(url)?.status !== 200) {
        throw new DriftUnreadableError(`the API cannot be read: ${describeRemoteFailure(error, remote)}`);
      }
    }
    const at = root?.response?.url ?? url;
    this.#seen.add(at);
    // Level by level, the links of a level admitted in the order they were found: which resources make the
    // sample does not depend on which answer came first.
    let found = await this.#visit('root', at, root);
    while (found.length > 0) {
      const level = found.filter((pending) => this.#admit(pending));
      const next = await mapLimited(level, this.concurrency, (pending) =>
        pending.name === 'document' ? this.#document(pending) : this.#read(pending),
      );
      found = next.flat();
    }
    this.#missingRelations();
  }

  /** Follows `pending.rel` from its entity and checks what comes. */
  async #read({ name, url, from, rel }: Pending): Promise<Pending[]> {
    let entity: Entity | undefined;
    let failure: StorefrontError | undefined;
    try {
      const answer = await from.follow(rel as never);
      if (answer && typeof answer === 'object' && 'toJSON' in answer) entity = answer as Entity;
    } catch (error) {
      // The SDK refused the answer (a status, a body it cannot take): the recorded exchange says why.
      failure = readFailure(error);
    }
    return this.#visit(name, url, entity, failure);
  }

  /** Notes a read that an outage prevented: what it, and what it embeds, would have checked. */
  #unchecked(name: string, url: string, exchange: Exchange | undefined, failure: Error | undefined): void {
    const kinds = new Set<string>();
    const add = (one: string) => {
      const kind = this.view.kindOf(one);
      if (kinds.has(kind)) return;
      kinds.add(kind);
      for (const inner of Object.values(this.view.embedded(one))) add(inner);
    };
    add(name);
    const reason = exchange ? `answered ${exchange.status}` : (failure?.message ?? 'no answer');
    this.collector.unchecked([...kinds], url, reason);
  }

  /** Checks a read of `name` at `url` (its exchange, its body), repeats it conditionally, and queues its links. */
  async #visit(name: string, url: string, entity: Entity | undefined, failure?: Error): Promise<Pending[]> {
    const kind = this.view.kindOf(name);
    const exchange = this.recorder.last(url);
    if (isOutage(exchange)) {
      this.#unchecked(name, url, exchange, failure);
      return [];
    }
    if (!exchange) return []; // Narrowing only: no exchange is an outage.
    const add = (found: ReturnType<typeof compareAnswer>) => {
      for (const one of found) this.collector.add({ ...one, example: url });
    };
    add(compareAnswer(this.view, name, exchange));
    if (exchange.status !== 200) return [];
    let document: unknown;
    try {
      document = JSON.parse(exchange.text);
    } catch {
      this.collector.add({
        kind,
        check: 'content-type',
        path: '(body)',
        message: 'the body is not JSON',
        example: url,
      });
      return [];
    }
    this.collector.saw(kind, true);
    add(compareBody(this.view, name, document));
    // An answer the SDK refused is not in its cache: a repeat would not be conditional, and says nothing more.
    if (entity) await this.#repeat(name, url, exchange);
    // What the SDK could not take is walked from the recorded body, as far as it is a HAL document.
    let walked = entity;
    try {
      walked ??= this.client.restore<Entity>(document as HalResource, url);
    } catch {
      return [];
    }
    return this.#explore(name, walked, document, url);
  }

  /** The read again, through the SDK's cache, which sends the first answer's validators. */
  async #repeat(name: string, url: string, first: Exchange): Promise<void> {
    const before = this.recorder.last(url);
    let failure: StorefrontError | undefined;
    try {
      await this.client
        .restore<Entity>({ _links: { self: { href: url } } } as HalResource, url)
        .follow('self' as never);
    } catch (error) {
      failure = readFailure(error);
    }
    const again = this.recorder.last(url);
    if (failure && (again === before || isOutage(again))) {
      // An outage on the repeat says nothing of conditional reads: unchecked, not a disagreement.
      const reason = again === before ? failure.message : `answered ${again?.status}`;
      this.collector.unchecked([this.view.kindOf(name)], url, `the conditional repeat: ${reason}`);
      return;
    }
    const found = compareConditional(this.view, name, first, again === before ? undefined : again);
    for (const one of found) this.collector.add({ ...one, example: url });
  }

  /** Notes the relations of `entity` (read as `name`) and of what it embeds; the links to follow. */
  #explore(name: string, entity: Entity, document: unknown, url: string): Pending[] {
    const found: Pending[] = [];
    const links = linksOf(document);
    const noted = this.#relations.get(name) ?? { checked: 0, example: url, carried: new Set<string>() };
    noted.checked++;
    for (const rel of Object.keys(links)) noted.carried.add(rel);
    this.#relations.set(name, noted);
    for (const [rel, link] of entity.links) {
      const target = this.view.target(name, rel);
      if (target?.method !== 'get' || target.target === 'none') continue;
      const first = link[0]!;
      if (first.method !== 'GET') continue;
      let href: string;
      try {
        href = first.expand({});
      } catch (error) {
        if (error instanceof TemplateVariableError) {
          this.collector.skip(first.href, `${rel}: its template needs ${first.variables.join(', ')}`);
        } else if ((error as { code?: unknown }).code === 'ERR_INVALID_URL') {
          // `new URL` refused it: the API sent a link that no client can follow, drift rather than an outage.
          const message = `the link's href ${JSON.stringify(first.href)} is no URL (${(error as Error).message})`;
          this.collector.add({
            kind: this.view.kindOf(name),
            check: 'field-value',
            path: `_links.${rel}.href`,
            message,
            example: url,
          });
        } else throw error;
        continue;
      }
      if (target.target === 'document' && new URL(href).origin !== this.origin) {
        this.collector.skip(href, `${rel}: on another origin`);
        continue;
      }
      found.push({ name: target.target, url: href, from: entity, rel, source: name, type: first.type });
    }
    const embedded = (document as Json)?._embedded as Record<string, unknown> | undefined;
    for (const [member, inner] of Object.entries(this.view.embedded(name))) {
      const documents = embedded?.[member];
      if (!Array.isArray(documents)) continue;
      const entities = entity.embedded(member as never) as Entity[];
      for (const [index, one] of entities.entries()) {
        this.collector.saw(this.view.kindOf(inner), false);
        found.push(...this.#explore(inner, one, documents[index], url));
      }
    }
    return found;
  }

  /** Whether to follow `pending`: a URL not read yet, of a kind (or a relation to documents) not sampled enough. */
  #admit(pending: Pending): boolean {
    if (this.#seen.has(pending.url)) return false;
    const [counts, key] =
      pending.name === 'document' ? [this.#documents, `${pending.source} ${pending.rel}`] : [this.#reads, pending.name];
    const done = counts.get(key) ?? 0;
    if (done >= this.sample) return false;
    counts.set(key, done + 1);
    this.#seen.add(pending.url);
    return true;
  }

  /**
   * A link to something that is not JSON (a file, a page): read when on the API's origin, its status and media
   * type checked against the link's `type`. Pages elsewhere (a shop's storefront) are not the API's.
   */
  async #document({ source, from, rel, url: href, type }: Pending): Promise<Pending[]> {
    let failure: StorefrontError | undefined;
    try {
      const response: unknown = await from.follow(rel as never);
      if (response instanceof Response) await response.body?.cancel();
    } catch (error) {
      failure = readFailure(error);
    }
    const kind = this.view.kindOf(source);
    const exchange = this.recorder.last(href);
    const path = `_links.${rel}`;
    if (isOutage(exchange)) {
      const reason = exchange ? `answered ${exchange.status}` : (failure?.message ?? 'no answer');
      this.collector.unchecked([kind], href, `following ${rel}: ${reason}`);
      return [];
    }
    if (exchange?.status !== 200) {
      const message = `following ${rel} answered ${exchange?.status ?? 'nothing'}, not 200`;
      this.collector.add({ kind, check: 'status', path, message, example: href });
      return [];
    }
    const got = essence(exchange.headers.get('content-type'));
    if (type !== undefined && got !== essence(type)) {
      const message = `the link's type is ${type}; the answer is ${got || 'untyped'}`;
      this.collector.add({ kind, check: 'content-type', path, message, example: href });
    }
    return [];
  }

  /** Relations the contract gives a kind that no sampled resource of it carried, but for those state decides. */
  #missingRelations(): void {
    for (const [name, noted] of this.#relations) {
      for (const rel of Object.keys(this.view.relations(name))) {
        if (noted.carried.has(rel) || isConditional(name, rel)) continue;
        this.collector.add({
          kind: this.view.kindOf(name),
          check: 'relation-missing',
          path: `_links.${rel}`,
          message: `none of the ${noted.checked} sampled carried ${rel}, which the contract gives it`,
          example: noted.example,
        });
      }
    }
  }
}
