/**
 * The event list and an event (admin tokens): the events of the shops the caller administers, oldest first.
 * The list is a feed: `after` names the last event seen, `next` is always there (after this page's last item,
 * or the same place when the page is empty), and `wait` holds an empty answer open until an event is written.
 */
import { API_LIMITS } from '@storefront-platform/sdk/internal';
import { badRequest, notFound } from '../../http/http-error.js';
import type { Call, Route } from '../../http/route.js';
import type { EventRow } from '../../store/types.js';
import { halEntity, link, results } from '../hal.js';
import { integer, list, single } from '../query.js';
import { collectionsNow, datedBy, perPage } from '../results.js';
import { mayRead } from './access.js';
import { isListedType, LISTED_TYPES } from './event-types.js';
import { eventResource } from './representations.js';
import { eventsUrl } from './urls.js';

/** The longest `wait`, seconds (events.md). */
const MAX_WAIT_S = API_LIMITS.eventWaitSeconds;
/** How often a held request looks again for events other processes wrote (they send no signal here). */
const RECHECK_MS = 250;

/** What decides the events a user sees: the events, and the shops they administer. */
const VISIBLE_FROM = ['events', 'shops'] as const;

/**
 * The events `call`'s user may see (of the shops they administer, pings left out), and when what decides them last
 * changed: the feed's date.
 */
function visibleEvents(call: Call, shopIds: ReadonlySet<string> | undefined, types: ReadonlySet<string> | undefined) {
  const { store } = call.context;
  const own = new Set(store.where('shops', 'owner_id', call.principal.userId).map((shop) => shop.id));
  const key = `events:${call.principal.userId}:${[...(shopIds ?? [])]}:${[...(types ?? [])]}`;
  const { revisions, change } = collectionsNow(call, VISIBLE_FROM);
  const events = call.cache.memo(key, revisions, () =>
    store
      .all('events')
      .filter(
        (event) =>
          event.shop_id !== null &&
          own.has(event.shop_id) &&
          (!shopIds || shopIds.has(event.shop_id)) &&
          (!types || types.has(event.type)),
      ),
  );
  return { events, change };
}

/** Index of the first of `events` (in list order) written after the event of store id `id`. */
function indexAfter(events: readonly EventRow[], id: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (Number(events[middle]!.id) > id) high = middle;
    else low = middle + 1;
  }
  return low;
}

function readQuery(call: Call) {
  const types = list(call.query, 'types');
  for (const type of types ?? []) {
    if (!isListedType(type)) {
      throw badRequest(`Query parameter types: unknown event type "${type}"; known: ${LISTED_TYPES.join(', ')}`);
    }
  }
  const shopIds = list(call.query, 'shop_ids');
  const after = single(call.query, 'after');
  let afterId = 0;
  if (after !== undefined) {
    const event = call.context.store.where('events', 'public_id', after)[0];
    if (!event) throw badRequest(`Query parameter after: no event ${after} (events are kept 30 days)`);
    afterId = Number(event.id);
  }
  return {
    types: types && new Set(types),
    shopIds: shopIds && new Set(shopIds),
    after,
    afterId,
    waitMs: integer(call.query, 'wait', 0, MAX_WAIT_S, 0) * 1000,
    perPage: perPage(call.query),
  };
}

export const eventRoutes: Route[] = [
  {
    method: 'GET',
    path: '/events',
    scope: 'admin',
    async handle(call) {
      const query = readQuery(call);
      const { context } = call;
      const deadline = Date.now() + query.waitMs;
      let { events, change } = visibleEvents(call, query.shopIds, query.types);
      let start = indexAfter(events, query.afterId);
      // Long-polling, on the wall clock (a moved test clock must not end it): a write of this process signals at
      // once; those of other processes sharing the data are read by the store's `sync` between short waits.
      // Not while the server stops: the poll answers with what it has (see CoreContext.stopping).
      while (start === events.length && Date.now() < deadline && !context.stopping?.aborted) {
        await context.events?.next(Math.min(RECHECK_MS, deadline - Date.now()));
        await context.store.sync?.();
        ({ events, change } = visibleEvents(call, query.shopIds, query.types));
        start = indexAfter(events, query.afterId);
      }
      const shown = events.slice(start, start + query.perPage);
      const params: [string, string][] = [];
      if (query.types) params.push(['types', [...query.types].join(',')]);
      if (query.shopIds) params.push(['shop_ids', [...query.shopIds].join(',')]);
      params.push(['per_page', String(query.perPage)]);
      const href = (after: string | undefined) => {
        const search = new URLSearchParams(params);
        if (after !== undefined) search.set('after', after);
        return `${eventsUrl(context.addresses)}?${search}`;
      };
      const last = shown.at(-1)?.public_id ?? query.after;
      const links = { self: link('self', href(query.after)), next: link('next', href(last)) };
      const fields = { total_items: events.length - start, page: 1, per_page: query.perPage };
      const items = shown.map((event) => eventResource(context.addresses, event));
      const document = results('event', fields, links, items);
      // Dated by the feed, not by the page: a new event changes every page's count and links, and a pruned or
      // no longer visible one the first page's items.
      const newest = events.at(-1);
      const entity = halEntity(context.addresses, document, newest ? Date.parse(newest.created_on) : 0);
      return { entity: datedBy(entity, change) };
    },
  },
  {
    method: 'GET',
    path: '/events/:id',
    scope: 'admin',
    handle(call) {
      const { store, addresses } = call.context;
      const event = store.where('events', 'public_id', call.params.id!)[0];
      if (!event || !mayRead(call, event)) throw notFound(`No event ${call.params.id}`);
      return { entity: halEntity(addresses, eventResource(addresses, event), Date.parse(event.created_on)) };
    },
  },
];
