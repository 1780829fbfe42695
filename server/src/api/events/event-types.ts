import type { EventType } from '@storefront-platform/sdk/internal';

/** A type the event list shows and endpoints subscribe to: every one but `ping`, sent to one endpoint on request. */
export type ListedType = Exclude<EventType, 'ping'>;

/** A record, so that the compiler insists on every event type of the contract. */
const LISTED: Record<ListedType, true> = {
  'theme.created': true,
  'theme.updated': true,
  'template.created': true,
  'template.updated': true,
  'template.deleted': true,
  'theme_asset.created': true,
  'theme_asset.updated': true,
  'theme_asset.deleted': true,
  'product.created': true,
  'product.updated': true,
  'order.created': true,
  'order.updated': true,
};

/** Every listed type, in the contract's order. */
export const LISTED_TYPES = Object.keys(LISTED) as readonly ListedType[];

export function isListedType(type: string): type is ListedType {
  return Object.hasOwn(LISTED, type);
}
