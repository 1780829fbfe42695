import type { HalResource } from '../contract/index.js';
import type { Reply, Transport, TransportRequest } from '../http/transport.js';
import { Curies } from './curies.js';
import { Entity, type ResponseInfo, type UnknownShape } from './entity.js';
import type { Loader } from './loader.js';
import { Results } from './results.js';

function isHal(data: unknown): data is HalResource {
  return (
    typeof data === 'object' &&
    data !== null &&
    !Array.isArray(data) &&
    ('_links' in data || '_class' in data || '_embedded' in data)
  );
}

function isResults(document: HalResource): boolean {
  return document._class?.includes('results') === true || Array.isArray(document._embedded?.items);
}

/**
 * Turns replies into entities, results pages, data or documents; shared by every entity of one client. It is
 * where the choice between `Entity` and its subclass `Results` is made, so that neither class needs the other's.
 */
export class Navigator implements Loader {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Sends `request` and returns what `follow` resolves to. */
  async load(request: TransportRequest): Promise<unknown> {
    return this.read(await this.#transport.request(request));
  }

  /** Sends `request` and returns the reply as received, for callers that need its status and headers. */
  send(request: TransportRequest): Promise<Reply> {
    return this.#transport.request(request);
  }

  /** What `follow` resolves to for `reply`: the response of a non-JSON document, data, or an entity. */
  read(reply: Reply): unknown {
    if (reply.document) return reply.document;
    if (!isHal(reply.data)) return reply.data;
    const info: ResponseInfo = {
      url: reply.url,
      status: reply.status,
      headers: reply.headers,
      revalidated: reply.revalidated,
    };
    return this.entity(reply.data, reply.url, Curies.none, info);
  }

  /** The entity for a HAL document found at `base`, inside the curie scope `parent`. */
  entity(document: HalResource, base: string, parent: Curies, response?: ResponseInfo): Entity | Results {
    const curies = Curies.of(document._links?.curies, base, parent);
    if (isResults(document)) return new Results(this, document, base, curies, response);
    return new Entity<UnknownShape>(this, document, base, curies, response);
  }
}
