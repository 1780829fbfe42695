/**
 * The relations whose presence depends on the resource's state rather than on the caller's rights (wire
 * contract, "Links appear only when the caller may use them"): a sample may well hold no resource that carries
 * one, so that no sample's lacking it is drift. Every other relation the contract gives a kind is expected on at
 * least one sampled resource of that kind: drift signs in as an administrator of the shops it reads.
 */
export const CONDITIONAL_RELATIONS: Readonly<Record<string, readonly string[]>> = {
  // Paging links "that apply" (wire contract, "Results entities"): `prev` from page 2 on, `next` while pages
  // follow, and a feed read by cursor (the events) has neither `first` nor `last`. `self` is required.
  results: ['next', 'prev', 'first', 'last'],
  // One or the other: whether the shop has a development theme, which a development theme itself links neither.
  theme: ['svc:dev_theme', 'svc:create_dev_theme'],
  // Every template but `layout.html`.
  themeTemplate: ['svc:delete_template'],
  // An event's subject and shop exist while they do; a delivery's event while it is kept.
  event: ['svc:subject', 'svc:shop'],
  webhookDelivery: ['svc:event', 'svc:resend_event'],
};

/** Whether the contract lets a resource of representation `name` lack `rel` because of its state. */
export function isConditional(name: string, rel: string): boolean {
  const key = name.startsWith('results:') ? 'results' : name;
  return CONDITIONAL_RELATIONS[key]?.includes(rel) === true;
}
