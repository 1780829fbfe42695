/** The team's data as the sandbox's two doors take and answer it (`team.ts` writes it). */
import type { AppKind, OrderRow, ProductRow } from '../store/types.js';

/** An app as listed: everything but its secret. */
export interface TeamApp {
  id: string;
  name: string;
  kind: AppKind;
  client_id: string;
  redirect_uris: string[];
  /** The login of the user its client-credentials tokens act as. */
  owner: string;
}

/** An app just created: its client secret is told this once. */
export interface CreatedTeamApp extends TeamApp {
  client_secret: string;
}

/** What {@link SandboxTeam.apps}`.add` takes. */
export interface TeamAppInput {
  name: string;
  /** Default `web`: a server-side app that keeps its secret, whose redirect URIs match exactly. */
  kind?: AppKind;
  /** Absolute URIs without a fragment; http(s) for `web` and `browser`. Default none (no code flow). */
  redirect_uris?: readonly string[];
  /** Login of the user its client-credentials tokens act as. Default: the demo app's owner. */
  owner?: string;
}

/** A user as listed: never the password or its hash. */
export interface TeamUser {
  id: string;
  login: string;
  name: string;
  role: string;
  /** Subdomains of the shops the user administers (owns). */
  shops: string[];
}

/** What {@link SandboxTeam.users}`.add` takes. */
export interface TeamUserInput {
  login: string;
  /** At least 8 characters; stored as an scrypt hash, as the seed stores the demo user's. */
  password: string;
  /** Default: the login. */
  name?: string;
  /**
   * Shops (id, subdomain or name) the user is to administer. A shop has one administrator, its owner (spec §1):
   * the user takes these over from their owner.
   */
  shops?: readonly string[];
}

/** A shop as listed. */
export interface TeamShop {
  id: string;
  name: string;
  subdomain: string;
  /** Login of the user who administers it. */
  owner: string;
  public: boolean;
  locale: string;
  currency_code: string;
}

/** What {@link SandboxTeam.shops}`.add` takes. */
export interface TeamShopInput {
  name: string;
  /** Login of the user who administers it. */
  owner: string;
  /** Default: from the name (`Acme Tools` → `acme-tools`). */
  subdomain?: string;
  description?: string;
  /** Default `en-GB`. */
  locale?: string;
  /** ISO 4217, default `GBP`. */
  currency_code?: string;
  /** Listed to every token. Default false. */
  public?: boolean;
}

/**
 * What {@link SandboxTeam.products}`.add` and `orders.add` take: the shop, and the fields `storefront-server
 * trigger --set` takes (`title`, `price` in cents, `status`…; orders: `status`, `total`, `contact.email`…).
 * Every other field has the default a triggered product or order has.
 */
export interface TeamItemInput {
  /** The shop: its id, subdomain or name. */
  shop: string;
  [field: string]: string | number | null;
}

/** A product as listed. */
export type TeamProduct = Pick<
  ProductRow,
  'id' | 'shop_id' | 'title' | 'slug' | 'price' | 'status' | 'created_on' | 'updated_on'
>;
/** An order as listed. */
export type TeamOrder = Pick<
  OrderRow,
  'id' | 'shop_id' | 'code' | 'status' | 'currency_code' | 'created_on' | 'updated_on'
> & {
  /** Cents. */
  total: number;
};

/** Which rows a list shows. */
export interface TeamItemFilter {
  /** Only this shop's (id, subdomain or name). */
  shop?: string;
}

/**
 * One kind of the team's data: `add` creates one and answers it as `Created`, `list` answers them all (or those
 * `filter` keeps) as `Item`, `remove` takes an id (or the other name the kind says) and removes the row with what
 * hangs on it.
 */
export interface TeamKind<Input, Item, Created = Item, Filter = never> {
  add(input: Input): Promise<Created>;
  list(filter?: Filter): Promise<Item[]>;
  remove(id: string): Promise<void>;
}

/** The team's data in a sandbox, kind by kind: created, listed, removed. A refused one rejects with a `SandboxError`. */
export interface SandboxTeam {
  /**
   * OAuth apps: each developer's client id, secret and redirect URIs. Removed by id or client id, with its tokens,
   * codes and webhook endpoints.
   */
  apps: TeamKind<TeamAppInput, TeamApp, CreatedTeamApp>;
  /**
   * People who sign in (password grant, the authorization page). Removed by id or login, with their tokens, codes
   * and webhook endpoints; refused (409) while they own an app or shop.
   */
  users: TeamKind<TeamUserInput, TeamUser>;
  /**
   * Shops, each added with a production theme of the seed's templates. Removed by id or subdomain, with their
   * products, orders and themes.
   */
  shops: TeamKind<TeamShopInput, TeamShop>;
  /** Products, each created with its `product.created` event. */
  products: TeamKind<TeamItemInput, TeamProduct, TeamProduct, TeamItemFilter>;
  /** Orders, each created (of one line: the shop's first visible product) with its `order.created` event. */
  orders: TeamKind<TeamItemInput, TeamOrder, TeamOrder, TeamItemFilter>;
}
