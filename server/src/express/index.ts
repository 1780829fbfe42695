export { createExpressApp } from './app.js';
export type { ExpressAppOptions } from './request-listener.js';
