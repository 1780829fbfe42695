/**
 * `storefront-server trigger TYPE --shop S [--set field=value …] [--data DIR | --store URL]`: creates or changes
 * the real product or order that TYPE reports, in the data itself, with its event in the same write (see
 * `api/events/trigger.ts`). A JSON data directory is one process's: while a server has it open the command says
 * so and how to go on (trigger from code with `server.trigger()`, or stop the server); a PostgreSQL database is
 * shared, and the servers on it deliver the event. Exit codes: 0 once written, 1 when it could not be (the data
 * is open elsewhere, missing or unreachable), 2 for bad flags, an unknown type, shop, id or field.
 */
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { eventResource } from './api/events/representations.js';
import { checkTrigger, TRIGGER_TYPES, TriggerError, triggerEvent } from './api/events/trigger.js';
import { readCommandArgs } from './command-args.js';
import { addressesOf } from './core/addresses.js';
import { dataFilePath } from './data-path.js';
import { createJsonStore } from './store/json/json-file.js';
import { StoreLockedError } from './store/json/store-locked-error.js';
import { createPostgresStore, isPostgresUrl, withoutPassword } from './store/postgres/postgres.js';
import type { Store } from './store/types.js';

const USAGE = `Usage: storefront-server trigger TYPE --shop SHOP [--set FIELD=VALUE ...]
                         [--id ID] [--data DIR | --store URL] [--public-url URL]

Creates or changes a real product or order and writes its event in the same
write: a GET of the object afterwards shows what the event says (its etag too).
Types: ${TRIGGER_TYPES.join(', ')}.

  --shop SHOP        the shop: its id, subdomain (northwind) or name
  --set FIELD=VALUE  a field of the created or changed object (repeatable);
                     prices and totals in cents (--set total=0). A field that
                     does not exist is an error listing the valid ones
  --id ID            for *.updated: which product or order (default: the
                     shop's most recently updated)
  --data DIR         the JSON data directory (default ./storefront-data);
                     stop the server that has it open first, or trigger from
                     code: await server.trigger(TYPE, { shop, set })
  --store URL        a PostgreSQL database (also STOREFRONT_DATABASE_URL):
                     servers running on it deliver the event
  --public-url URL   the origin the server is reached at, which the event's
                     links and etag name (default http://127.0.0.1:4000)
  --json             print the event as JSON
  --help             show this help
`;

/** `--set a=1 --set b=x` → `{ a: '1', b: 'x' }`; a repeated field is refused (which one would win?). */
function parseSets(given: readonly string[]): Record<string, string> {
  const set: Record<string, string> = {};
  for (const pair of given) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new TriggerError(`--set takes FIELD=VALUE, got "${pair}"`);
    const field = pair.slice(0, at).trim();
    if (Object.hasOwn(set, field)) throw new TriggerError(`--set ${field}: given twice`);
    set[field] = pair.slice(at + 1);
  }
  return set;
}

/** A data file or directory that holds data (the command never seeds). */
function existingData(given: string): string {
  const path = dataFilePath(given);
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) {
    throw new Error(`no data at ${path}: start storefront-server --data ${given} once to create it`);
  }
  return path;
}

function lockedMessage(error: StoreLockedError, data: string): string {
  const { pid, host } = error.holder;
  const stop = host === hostname() ? `stop it (kill ${pid})` : `stop it on ${host}`;
  return (
    `${data} is open by a running storefront-server (pid ${pid} on ${host}): a JSON data directory is one process's. ` +
    `Either ${stop} and trigger again, or trigger in that server: from code with await server.trigger(type, { shop, set }), ` +
    'or run the servers on PostgreSQL (--store), where trigger writes beside them.'
  );
}

export async function runTrigger(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = readCommandArgs(
    'trigger',
    USAGE,
    argv,
    {
      shop: { type: 'string' },
      set: { type: 'string', multiple: true },
      id: { type: 'string' },
      data: { type: 'string' },
      store: { type: 'string' },
      'public-url': { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (typeof args === 'number') return args;
  const { values, positionals } = args;
  const fail = (message: string, code: number) => {
    console.error(`storefront-server trigger: ${message}`);
    return code;
  };
  const [type, ...extra] = positionals;
  if (!type || extra.length > 0) return fail(`give one event type, e.g. order.created\n\n${USAGE}`, 2);
  if (!values.shop) return fail('--shop is needed: the shop’s id, subdomain (northwind) or name', 2);
  const storeUrl = values.store ?? env.STOREFRONT_STORE ?? env.STOREFRONT_DATABASE_URL;
  if (storeUrl !== undefined && values.data !== undefined) return fail('give --data or --store, not both', 2);
  if (storeUrl !== undefined && !isPostgresUrl(storeUrl)) {
    return fail(`--store must be a postgres:// or postgresql:// URL, got "${withoutPassword(storeUrl)}"`, 2);
  }
  let set: Record<string, string>;
  let checked: ReturnType<typeof checkTrigger>;
  let addresses: ReturnType<typeof addressesOf>;
  try {
    set = parseSets(values.set ?? []);
    checked = checkTrigger(type, set);
    addresses = addressesOf(
      values['public-url'] ?? env.STOREFRONT_PUBLIC_URL ?? 'http://127.0.0.1:4000',
      '--public-url',
    );
  } catch (error) {
    return fail((error as Error).message, 2);
  }
  const data = values.data ?? env.STOREFRONT_DATA ?? 'storefront-data';
  let store: Store;
  try {
    store = storeUrl !== undefined ? await createPostgresStore(storeUrl) : await createJsonStore(existingData(data));
  } catch (error) {
    if (error instanceof StoreLockedError) return fail(lockedMessage(error, data), 1);
    return fail((error as Error).message, 1);
  }
  try {
    const event = await triggerEvent({ store, clock: { now: () => Date.now() }, addresses, tokenTtl: 3600 }, checked, {
      shop: values.shop,
      set,
      ...(values.id === undefined ? {} : { id: values.id }),
    });
    const resource = eventResource(addresses, event);
    if (values.json) console.log(JSON.stringify(resource));
    else {
      const subject = (resource._links as Record<string, { href: string }>)['svc:subject']?.href;
      const data = event.data as { id: string };
      console.log(
        `${event.type} ${event.public_id}: ${checked.split('.')[0]} ${data.id} of shop ${event.shop_id} → ${subject}`,
      );
    }
    return 0;
  } catch (error) {
    return fail((error as Error).message, error instanceof TriggerError ? 2 : 1);
  } finally {
    await store.close();
  }
}
