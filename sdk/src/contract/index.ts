export type * from './events.js';
export type * from './hal.js';
export type * from './oauth.js';
export type * from './relations.js';
export type * from './resources.js';
