export { createExpressApp, type ExpressAppOptions } from './app.js';
