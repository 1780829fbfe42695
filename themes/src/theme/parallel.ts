/** How many writes run at once: enough to hide round trips, few enough not to crowd a server that writes in turn. */
export const CONCURRENCY = 4;

/**
 * Runs a task over items, at most a number at a time, in order of start; a rejection stops further starts and is
 * thrown once the tasks already running have settled, so that what they did is recorded before it surfaces.
 */
export { mapLimited as parallel } from '@storefront-platform/sdk';
