/**
 * The reference server's data model and the small interface every store adapter implements.
 * Rows are plain JSON. Timestamps are ISO 8601 strings with milliseconds; instants used only for
 * arithmetic (token expiry) are epoch milliseconds.
 */
import type {
  EventDataMap,
  EventType,
  OrderAddress,
  OrderContact,
  OrderLineItemFields,
  OrderStatus,
  ProductStatus,
  Scope,
  WebhookDeliveryFields,
  WebhookEndpointStatus,
} from '@storefront-platform/sdk/internal';

/** A person who logs in (password grant, authorization page). */
export interface UserRow {
  id: string;
  login: string;
  name: string;
  /** `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`; never the password itself. */
  password_hash: string;
  /** Platform role reported by the root resource. */
  role: string;
}

/**
 * How an app receives its authorization redirects (the client profiles of RFC 6749 §2.1): `native`, an app or a
 * command line on the user's machine, which listens on a loopback port the system picks (RFC 8252 §7.3), so a
 * registered loopback IP redirect accepts any port; `web`, a server-side app, and `browser`, a page keeping no
 * secret: their redirect URIs match exactly.
 */
export type AppKind = 'native' | 'web' | 'browser';

/** A registered OAuth client. */
export interface AppRow {
  id: string;
  name: string;
  client_id: string;
  /** Kept as issued: it is the HMAC key of the app's JWT bearer assertions. */
  client_secret: string;
  redirect_uris: string[];
  /** Absent in data written before kinds existed: such a row counts as `web`, whose redirect URIs match exactly. */
  kind?: AppKind;
  /** Client-credentials tokens act as this user. */
  owner_id: string;
}

/** An issued access token. Only its hash is stored. */
export interface TokenRow {
  id: string;
  /** SHA-256 of the token, base64url. */
  token_hash: string;
  app_id: string;
  user_id: string;
  scopes: Scope[];
  /** Epoch ms. */
  issued_at: number;
  /** Epoch ms. */
  expires_at: number;
  /** Epoch ms when exchanged through the JWT bearer grant (one exchange per token), or revoked. */
  revoked_at?: number;
  /**
   * Set when the token was revoked rather than exchanged: its authorization code was presented again (RFC 6749
   * §4.1.2), so that an exchange attempt can say so instead of "already exchanged".
   */
  revoked_because?: 'code_replayed';
  /**
   * The authorization code this token descends from: issued for it, or exchanged through the JWT bearer grant from
   * a token that was (recorded in the write that issues the token). A replay of the code revokes every token that
   * names it. Absent for tokens of other grants, and in data written before families were recorded.
   */
  code_id?: string;
}

/** An authorization code awaiting exchange (authorization code grant + PKCE). */
export interface AuthCodeRow {
  id: string;
  /** SHA-256 of the code, base64url. */
  code_hash: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: Scope[];
  /** S256 challenge; absent when the client sent none. */
  code_challenge?: string;
  /** Epoch ms. */
  expires_at: number;
  /** Epoch ms; a used code cannot be used again. */
  used_at?: number;
  /** The token issued for this code; revoked if the code is presented again (RFC 6749 §4.1.2). */
  token_id?: string;
}

/** A shop and its owner. */
export interface ShopRow {
  id: string;
  owner_id: string;
  name: string;
  subdomain: string;
  description: string;
  locale: string;
  currency_code: string;
  /** Listed in the public shop list and readable with `public` tokens. */
  public: boolean;
  created_on: string;
  updated_on: string;
}

/** A product variant, stored inside its product. */
export interface VariantRow {
  id: string;
  title: string;
  sku: string;
  stock: number;
  price: number;
}

/** A product with its variants. */
export interface ProductRow {
  id: string;
  shop_id: string;
  title: string;
  slug: string;
  description: string;
  price: number;
  price_comparison: number | null;
  status: ProductStatus;
  vendor: string;
  tags: string[];
  variants: VariantRow[];
  created_on: string;
  updated_on: string;
}

/** One line of an order, stored inside it; its `total` is computed when shown. */
export type LineItemRow = Omit<OrderLineItemFields, 'total'>;

/** An order with its line items, contact and address. */
export interface OrderRow {
  id: string;
  shop_id: string;
  code: string;
  status: OrderStatus;
  currency_code: string;
  contact: OrderContact;
  address: OrderAddress;
  line_items: LineItemRow[];
  created_on: string;
  updated_on: string;
}

/** A theme of a shop. */
export interface ThemeRow {
  id: string;
  shop_id: string;
  title: string;
  /** One production theme per shop; at most one development theme (production: false). */
  production: boolean;
  settings: Record<string, unknown>;
  /**
   * The secret in the address of the theme's preview page (random, base64url). Data written before themes had
   * one gets it when the server or mock opens the data.
   */
  preview_key: string;
  created_on: string;
  updated_on: string;
}

/** A template of a theme. */
export interface TemplateRow {
  id: string;
  theme_id: string;
  file_name: string;
  body: string;
  created_on: string;
  updated_on: string;
}

/** An asset's metadata; its bytes are an {@link AssetFileRow}. */
export interface AssetRow {
  id: string;
  theme_id: string;
  file_name: string;
  content_type: string;
  /** MD5 hex of the bytes. */
  digest: string;
  file_size: number;
  created_on: string;
  updated_on: string;
}

/** An asset's bytes, apart from its metadata so that listing assets never loads files. */
export interface AssetFileRow {
  /** Same id as the asset. */
  id: string;
  /** The bytes, base64. */
  data: string;
}

/**
 * An event, written in the same commit as the write it reports (`api/events/record.ts`). Its row is what the
 * event's representation shows, but for `seq` and `subject`.
 */
export interface EventRow<T extends EventType = EventType> {
  /**
   * The store's id, from its sequence: the event's place in the event list. Decided under the write lock, so
   * the list's order is the commits' order on every process.
   */
  id: string;
  /** `evt_…`, random: what clients see as the event's `id`, unique across processes and data sets. */
  public_id: string;
  type: T;
  /** Null for a `ping`, which is about an endpoint, not a shop. */
  shop_id: string | null;
  created_on: string;
  data: EventDataMap[T];
  /**
   * The subject's address as a path on the server's origin (`/v1/themes/3/templates/12`), so that a server moved
   * to another public URL links it there; absent after a delete and on a ping.
   */
  subject?: string;
  /** A ping's endpoint: only it is sent the event, and the event list leaves it out. */
  ping_of?: string;
  /**
   * The id (`X-Request-Id`) of the API request whose write recorded the event; absent for an event no API request
   * made (a trigger) and for those recorded before events kept it.
   */
  request_id?: string;
}

/** A webhook endpoint of an app. */
export interface WebhookEndpointRow {
  id: string;
  /** The app whose token created it: only that app's admin tokens see and change it. */
  app_id: string;
  /** The user of that token: the endpoint is sent the events of the shops this user administers. */
  user_id: string;
  url: string;
  events: (EventType | '*')[];
  description: string;
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  /** `whsec_…`, kept as issued: it is the HMAC key of the signatures. */
  secret: string;
  /** The secret before the last rotation, which signs beside the new one until `previous_secret_until`. */
  previous_secret?: string;
  /** Epoch ms. */
  previous_secret_until?: number;
  /** Epoch ms of the first failed attempt since the last success; null while the endpoint answers. */
  failing_since: number | null;
  created_on: string;
  updated_on: string;
}

/** One attempt to deliver an event to an endpoint: its representation's fields, and when it is due. */
export interface WebhookDeliveryRow extends WebhookDeliveryFields {
  /** The event's store id (its `EventRow.id`; the representation shows its public `evt_…`). */
  event_id: string;
  /** Epoch ms when a pending attempt is due; null once it was made. */
  due_at: number | null;
}

/**
 * A POST sent with an `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) and its answer: the row is
 * stored in the same commit as the request's write, the answer right after, so that a retry with the same key gets
 * it again instead of writing twice (`core/idempotency.ts`). Kept {@link IDEMPOTENCY_TTL_MS} after it was stored.
 */
export interface IdempotencyKeyRow {
  /** SHA-256 (base64url) of the app, the user and the key: a key is the caller's, never shared between callers. */
  id: string;
  app_id: string;
  user_id: string;
  /** The key as the client sent it (its sf-string's content). */
  key: string;
  /** SHA-256 (base64url) of the method, the path and query, and the body's SHA-256: what "the same request" is. */
  fingerprint: string;
  /** Epoch ms, by the core's clock. */
  created_at: number;
  /** Epoch ms, by the core's clock: past it the key is free again and the row is pruned. */
  expires_at: number;
  /** The answer's status; 0 until the answer is stored (right after the write's commit). */
  status: number;
  /** The answer's headers (lower-case names), but for `date` and `x-request-id`, which are the replay's own. */
  headers: Record<string, string>;
  /** The answer's body as UTF-8 text (every answer of the API to a POST is JSON); absent: none. */
  body?: string;
}

/** How long an {@link IdempotencyKeyRow} is kept, ms: 24 hours, as Stripe and the draft's examples do. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/**
 * A fault rule of the sandbox as stored (`sandbox/faults.ts` checks it as given, decides with it and shows it):
 * the rule's fields, what it did so far, and how many numbers its generator has drawn, so that every process of
 * a fleet draws the rule's next number from its seed alone.
 */
export interface FaultRuleRow {
  id: string;
  kind: string;
  method: string | null;
  path: string | null;
  /** Hits left; null: no limit. */
  times: number | null;
  probability: number;
  seed: number;
  hits: number;
  /** Numbers drawn from the rule's generator so far. */
  draws: number;
  /** The kind's own fields (`status`, `delay_ms`, …), as `sandbox/faults.ts` checked them. */
  [field: string]: unknown;
}

/**
 * A setting of the sandbox: the row `clock`, the offset of the sandbox's time from the process's; the row
 * `rate_limit`, the limit set through the control API (`null`: none), in place of the one the server started with.
 */
export interface SandboxSettingRow {
  id: string;
  /** `clock`: milliseconds added to the process's time. */
  offset_ms?: number;
  /** `rate_limit`: requests per window for each app and user; null: no limit. */
  rate_limit?: { quota: number; windowSeconds: number } | null;
}

/** Every collection of the store and the row type it holds. */
export interface Collections {
  users: UserRow;
  apps: AppRow;
  tokens: TokenRow;
  codes: AuthCodeRow;
  shops: ShopRow;
  products: ProductRow;
  orders: OrderRow;
  themes: ThemeRow;
  templates: TemplateRow;
  assets: AssetRow;
  files: AssetFileRow;
  events: EventRow;
  webhook_endpoints: WebhookEndpointRow;
  webhook_deliveries: WebhookDeliveryRow;
  idempotency_keys: IdempotencyKeyRow;
  /** The sandbox's fault rules, in the order added. Not data: see {@link SandboxCollectionName}. */
  fault_rules: FaultRuleRow;
  /** The sandbox's settings (its clock's offset). Not data: see {@link SandboxCollectionName}. */
  sandbox_settings: SandboxSettingRow;
}

/** Name of a collection of the store. */
export type CollectionName = keyof Collections;

/**
 * The collections that hold the sandbox's own state rather than data: kept in the store so that every process
 * sharing it sees them, but no data set carries them (a seed, a snapshot, a reset or restore, a copy between
 * stores), so that a reset or a restore leaves the fault rules and the clock as they are.
 */
export type SandboxCollectionName = 'fault_rules' | 'sandbox_settings';

/** Name of a collection of data: what a {@link Dataset} holds. */
export type DataCollectionName = Exclude<CollectionName, SandboxCollectionName>;

/** A row about to be inserted: the store assigns `id` when it is absent. */
export type NewRow<C extends CollectionName> = Omit<Collections[C], 'id'> & { id?: string };

/** The whole data set, as the seed generator produces it and as `createServer({ data })` accepts it. */
export type Dataset = { [C in DataCollectionName]: Collections[C][] };

/** Every row a store holds, the sandbox's collections included: what an adapter loads and keeps. */
export type StoredData = { [C in CollectionName]: Collections[C][] };

/**
 * Writes staged inside {@link Store.write}. Reads see the committed state plus this transaction's own
 * staged changes. Nothing is applied unless the write function returns normally.
 */
export interface Transaction {
  get<C extends CollectionName>(collection: C, id: string): Collections[C] | undefined;
  where<C extends CollectionName, K extends keyof Collections[C] & string>(
    collection: C,
    field: K,
    value: Collections[C][K],
  ): readonly Collections[C][];
  insert<C extends CollectionName>(collection: C, row: NewRow<C>): Collections[C];
  update<C extends CollectionName>(
    collection: C,
    id: string,
    patch: Partial<Omit<Collections[C], 'id'>>,
  ): Collections[C];
  delete<C extends CollectionName>(collection: C, id: string): void;
}

/** A failed-login count as {@link SharedFailures} keeps it. */
export interface FailureCount {
  failures: number;
  /** Epoch ms of the last failure. */
  last: number;
}

/**
 * Failed-login counts kept where every process sharing the data sees them (the PostgreSQL store), so that a
 * guesser spread over several processes is slowed down as one would be (see `oauth/login-guard.ts`).
 */
export interface SharedFailures {
  /** The counts of `keys` that have any. */
  read(keys: readonly string[]): Promise<Map<string, FailureCount>>;
  /**
   * One more failure of `key` at `now`, counted from zero again when its last one is more than `forgetMs` old;
   * resolves with its count now.
   */
  fail(key: string, now: number, forgetMs: number): Promise<FailureCount>;
  /** Forgets `key`. */
  clear(key: string): Promise<void>;
  /** Forgets the failures stamped after `epochMs`: counted on a clock since set back (a sandbox's). */
  forgetAfter(epochMs: number): Promise<void>;
}

/**
 * Request counts of the sandbox's rate limit kept where every process sharing the data sees them (the PostgreSQL
 * store), so that a fleet holds one quota per app and user (see `http/rate-limit.ts`).
 */
export interface SharedRateCounts {
  /**
   * One more request of `key` in the window that starts at `windowStart` (epoch ms), under a policy of `quota`
   * requests per window; resolves with the request's count in that window, one the fleet hands out once. A count of
   * an earlier window starts over. Counts may be taken ahead of requests (see `postgres-rate-counts.ts`): a count
   * is at least the requests counted before it in the fleet, and at most `quota` only while the quota holds.
   */
  add(key: string, windowStart: number, quota: number): Promise<number>;
  /** Forgets the counts of windows that start after `epochMs`: counted on a clock since set back (a sandbox's). */
  forgetAfter(epochMs: number): Promise<void>;
}

/** A row held against every other process sharing the data (see {@link Store.claim}). */
export interface Claim<R> {
  /** The row as committed when the claim was taken (`undefined`: gone). */
  row: R | undefined;
  /** Lets other processes take it. */
  release(): Promise<void>;
}

/** A snapshot as {@link SnapshotShelf.list} tells it. */
export interface SnapshotInfo {
  name: string;
  /** ISO 8601, by the clock of the process that took it. */
  taken_on: string;
}

/**
 * Named copies of a whole data set, kept where every process sharing the data sees them (the PostgreSQL store,
 * in its schema); a store of one process has none, and the sandbox keeps them in its own memory.
 */
export interface SnapshotShelf {
  /** Keeps `data` under `name`, replacing a snapshot of that name. */
  put(name: string, data: Dataset, takenOn: string): Promise<void>;
  /** The data kept under `name`; `undefined`: none. */
  get(name: string): Promise<Dataset | undefined>;
  /**
   * When `name` was taken, as `put` was told, without its data; `undefined`: none. Optional (a shelf of one's own
   * may leave it out): the sandbox then reads its baseline whole at each reset.
   */
  takenOn?(name: string): Promise<string | undefined>;
  /** Every snapshot, by name. */
  list(): Promise<SnapshotInfo[]>;
  /** Forgets `name`; whether there was one. */
  delete(name: string): Promise<boolean>;
}

/** A request as {@link SharedJournal} keeps it: a JSON object with at least these fields (see `sandbox/journal.ts`). */
export interface JournalRecord {
  method: string;
  path: string;
  /** Null: no answer was sent (a fault rule reset the connection). */
  status: number | null;
}

/** Which records {@link SharedJournal.list} returns; every given field must match. */
export interface JournalQuery {
  /** Upper-case method. */
  method?: string;
  /** A prefix of the path. */
  path?: string;
  status?: number;
}

/**
 * The sandbox's request journal kept where every process sharing the data sees it (the PostgreSQL store), so
 * that a test reads, through any process, the requests any of them answered.
 */
export interface SharedJournal {
  /** Records `record`, keeping the newest `keep` records. */
  add(record: JournalRecord, keep: number): Promise<void>;
  /** The records matching `query`, oldest first. */
  list(query: JournalQuery): Promise<JournalRecord[]>;
  /** Forgets every record. */
  clear(): Promise<void>;
}

/**
 * The store: reads are synchronous from memory; writes are serialised through one queue and
 * acknowledged only once durable (on disk for the JSON adapter).
 */
export interface Store {
  get<C extends CollectionName>(collection: C, id: string): Collections[C] | undefined;
  /** All rows in insertion order. The array and rows are the store's own: never mutate them. */
  all<C extends CollectionName>(collection: C): readonly Collections[C][];
  /** Rows whose `field` equals `value`, through an index kept by the store (O(1) per lookup). */
  where<C extends CollectionName, K extends keyof Collections[C] & string>(
    collection: C,
    field: K,
    value: Collections[C][K],
  ): readonly Collections[C][];
  /** Bumped on every committed change of the collection; lets callers cache derived views. */
  revision(collection: CollectionName): number;
  /** Runs `fn` alone in the write queue; resolves with its result once the changes are durable. */
  write<T>(fn: (tx: Transaction) => T): Promise<T>;
  /**
   * Only for a store whose data other processes change too (PostgreSQL): resolves once reads show every write
   * any process had acknowledged when it was called, and rejects with a `StoreUnavailableError` when that cannot
   * be known (the database does not answer). The core's dispatch awaits it before each request (read-your-writes
   * across processes), `/health` to probe; `undefined`: nothing to wait for. A store of one process has none.
   */
  sync?(): Promise<void> | undefined;
  /**
   * Only for a store other processes share: holds the row against every other process until released, or until
   * this process ends; `undefined` when another process holds it. A webhook attempt is made under one.
   */
  claim?<C extends CollectionName>(collection: C, id: string): Promise<Claim<Collections[C]> | undefined>;
  /** Only for a store other processes share: the failed-login counts they all see. */
  readonly failures?: SharedFailures;
  /** Only for a store other processes share: the rate limit's counts they all see. */
  readonly rateCounts?: SharedRateCounts;
  /** Only for a store other processes share: the sandbox's snapshots, seen by them all. */
  readonly snapshots?: SnapshotShelf;
  /** Only for a store other processes share: the sandbox's request journal, seen by them all. */
  readonly journal?: SharedJournal;
  /** Waits for queued writes, then releases the store. */
  close(): Promise<void>;
}
