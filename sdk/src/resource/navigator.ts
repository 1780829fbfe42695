import type { HalResource } from '../contract/index.js';
import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { headerRecord, isJsonType } from '../http/media-type.js';
import type { Reply, Transport, TransportRequest } from '../http/transport.js';
import { Curies } from './curies.js';
import { Entity, type ResponseInfo, type UnknownShape } from './entity.js';
import { halProblem } from './hal-check.js';
import type { Loader, LoadRequest } from './loader.js';
import { Results } from './results.js';

function isResults(document: HalResource): boolean {
  return !!document._class?.includes('results') || Array.isArray(document._embedded?.items);
}

/**
 * Turns replies into entities, results pages or documents; shared by every entity of one client. It is where the
 * choice between `Entity` and its subclass `Results` is made, so that neither class needs the other's, and where
 * an answer is checked against what its link announced.
 */
export class Navigator implements Loader {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Sends `request` and returns what `follow` resolves to. */
  async load(request: LoadRequest): Promise<unknown> {
    return this.read(await this.#transport.request(request), request.type);
  }

  /** Sends `request` and returns the reply as received, for callers that need its status and headers. */
  send(request: TransportRequest): Promise<Reply> {
    return this.#transport.request(request);
  }

  /**
   * What `follow` resolves to for `reply` to a link that announced `type`: the response of a non-JSON document,
   * `undefined` for an empty answer, or an entity; an {@link InvalidResponseError} for anything else.
   */
  read(reply: Reply, type?: string): unknown {
    const wantsJson = type === undefined || isJsonType(type);
    if (reply.document) {
      if (wantsJson) {
        // Nobody will read it: release its connection.
        reply.document.body?.cancel().catch(() => {});
        const got = reply.headers.get('content-type') ?? 'no content type';
        throw this.invalid(reply, `a body of ${got}, not JSON${type ? ` (the link announced ${type})` : ''}`);
      }
      return reply.document;
    }
    if (reply.data === undefined) return undefined;
    if (!wantsJson) throw this.invalid(reply, `JSON, where the link announced ${type}`);
    const problem = halProblem(reply.data);
    if (problem) throw this.invalid(reply, problem);
    const info: ResponseInfo = {
      url: reply.url,
      status: reply.status,
      headers: reply.headers,
      revalidated: reply.revalidated,
    };
    return this.entity(reply.data as HalResource, reply.url, Curies.none, info);
  }

  /** The error for `reply`, which the client cannot use because of `problem`. */
  invalid(reply: Reply, problem: string): InvalidResponseError {
    return new InvalidResponseError({
      method: reply.method,
      url: reply.url,
      status: reply.status,
      headers: headerRecord(reply.headers),
      body: reply.data,
      problem,
    });
  }

  /** The entity for a HAL document found at `base`, inside the curie scope `parent`. */
  entity(document: HalResource, base: string, parent: Curies, response?: ResponseInfo): Entity | Results {
    const curies = Curies.of(document._links?.curies, base, parent);
    if (isResults(document)) return new Results(this, document, base, curies, response);
    return new Entity<UnknownShape>(this, document, base, curies, response);
  }
}
