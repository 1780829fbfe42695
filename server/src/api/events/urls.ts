/** Where events, webhook endpoints and delivery attempts live. */
import type { Addresses } from '../../core/types.js';

export const eventsUrl = (a: Addresses) => `${a.baseUrl}/events.json`;
export const eventUrl = (a: Addresses, publicId: string) => `${a.baseUrl}/events/${publicId}.json`;
export const endpointsUrl = (a: Addresses) => `${a.baseUrl}/webhook_endpoints`;
export const endpointUrl = (a: Addresses, id: string) => `${endpointsUrl(a)}/${id}`;
export const deliveriesUrl = (a: Addresses, endpointId: string) => `${endpointUrl(a, endpointId)}/deliveries.json`;
export const deliveryUrl = (a: Addresses, id: string) => `${a.baseUrl}/webhook_deliveries/${id}`;

/** Link templates of the root. */
export const eventsTemplate = (a: Addresses) => `${eventsUrl(a)}{?after,types,shop_ids,wait,per_page}`;
export const eventTemplate = (a: Addresses) => `${a.baseUrl}/events/{id}.json`;
export const endpointsTemplate = (a: Addresses) => `${endpointsUrl(a)}.json{?page,per_page}`;
