import type { PagingVars, ResultsFields } from '../contract/index.js';
import { PageLoopError } from '../errors/page-loop-error.js';
import { Entity, type UnknownShape } from './entity.js';
import type { Edge, FollowOptions, Shape } from './shape.js';

/** The shape of a results entity (a page of a list) whose items have shape `I`. */
export interface ResultsShape<I extends Shape> {
  fields: ResultsFields;
  embedded: { items: I };
  relations: Record<'self' | 'next' | 'prev' | 'first' | 'last', Edge<PagingVars | undefined, Results<I>, 'get'>>;
}

/**
 * A results entity: one page of a list (`_class` `['results', kind]`, `total_items`, `page`, `per_page`,
 * `_embedded.items`, links `next`/`prev`/`first`/`last`). Walks the whole list through `next`, whose links
 * the server writes with a cursor (after this page's last item, not at an offset): while the list changes, a
 * walk yields no item twice and misses none that stayed in the list, as long as their sort key does not
 * change (`created_on` never does). The SDK guide's "What a walk over next guarantees" says what else holds.
 */
export class Results<I extends Shape = UnknownShape> extends Entity<ResultsShape<I>> {
  /** The items of this page only (`_embedded.items`). */
  get pageItems(): Entity<I>[] {
    return this.embedded('items') as Entity<I>[];
  }

  /**
   * This page, then each following page through `next`, one request per page, as they are consumed. A `next` to a
   * page already read (this one included) ends the walk with a {@link PageLoopError}, before it is requested.
   */
  async *pages(options: Pick<FollowOptions, 'signal'> = {}): AsyncGenerator<Results<I>, void, undefined> {
    let page: Results<I> = this;
    const read = new Set([this.response?.url, this.can('self') ? this.link('self').resolve().url : undefined]);
    yield page;
    while (page.can('next')) {
      options.signal?.throwIfAborted();
      const { url } = page.link('next').resolve();
      if (read.has(url)) throw new PageLoopError(url);
      read.add(url);
      const next: unknown = await page.follow('next', undefined, options);
      if (!(next instanceof Results)) return;
      page = next as Results<I>;
      yield page;
    }
  }

  /** Every item of the list from this page on, fetching pages as the loop advances. */
  async *items(options: Pick<FollowOptions, 'signal'> = {}): AsyncGenerator<Entity<I>, void, undefined> {
    for await (const page of this.pages(options)) {
      for (const item of page.pageItems) {
        options.signal?.throwIfAborted();
        yield item;
      }
    }
  }

  /** The first `count` items from this page on, fetching no more pages than needed. */
  async take(count: number, options: Pick<FollowOptions, 'signal'> = {}): Promise<Entity<I>[]> {
    const taken: Entity<I>[] = [];
    if (count <= 0) return taken;
    for await (const item of this.items(options)) {
      taken.push(item);
      if (taken.length >= count) break;
    }
    return taken;
  }
}
