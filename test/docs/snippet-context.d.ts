/**
 * What the docs' code blocks may use without declaring it: the objects that docs/sdk.md obtains in its first
 * section ("A first request"). A block that declares its own shadows these.
 */
import type { Client, Root, Shop, Theme } from 'storefront-sdk';

declare global {
  /** A client of the reference server, authenticated with the demo app (docs/sdk.md). */
  const client: Client;
  /** `await client.root()`. */
  const root: Root;
  /** A shop of the demo user, in detail. */
  const shop: Shop;
  /** `await shop.follow('svc:theme')`. */
  const theme: Theme;
}
