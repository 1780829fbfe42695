import type { HalResource } from '../contract/index.js';
import type { TransportRequest } from '../http/transport.js';
import type { Curies } from './curies.js';

/** A request along a link. */
export interface LoadRequest extends TransportRequest {
  /**
   * The media type the link announces for its target (`Link.type`): without one, or a JSON one, the answer must
   * be a HAL resource or empty; with another, it must not be JSON.
   */
  type?: string;
}

/**
 * What an entity asks of the client that made it: to load the target of a link, and to make entities of the
 * documents it embeds. Entities know this interface rather than the `Navigator`, which decides between an
 * `Entity` and a `Results` page and so depends on both classes; the dependency then points one way.
 */
export interface Loader {
  /** Sends `request` and resolves to what `follow` resolves to. */
  load(request: LoadRequest): Promise<unknown>;
  /** The entity (or results page) for a document embedded in one found at `base`, inside the curie scope `parent`. */
  entity(document: HalResource, base: string, parent: Curies): unknown;
}
