import type { Root, Shop } from '@storefront-platform/sdk';

/**
 * One of the shops the authorized user administers (the root embeds them), in detail: the one whose subdomain
 * or id is `wanted`, else the first. Throws with the choices when none matches.
 */
export async function findShop(root: Root, wanted?: string): Promise<Shop> {
  const shops = root.embedded('shops');
  const summary =
    wanted === undefined
      ? shops[0]
      : shops.find((shop) => shop.properties.subdomain === wanted || shop.properties.id === wanted);
  if (!summary) {
    const choices = shops.map((shop) => shop.properties.subdomain).join(', ') || 'none';
    throw new Error(`No shop "${wanted ?? ''}" among the shops ${root.properties.user_name} administers (${choices})`);
  }
  // The root embeds summaries; `self` leads to the detail, which carries the shop's other links.
  return summary.follow('self');
}
