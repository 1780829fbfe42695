export { COLLECTIONS, emptyDataset, isCollectionName } from './collections.js';
export { StoreError, StoreFileError } from './errors.js';
export { createMemoryStore } from './memory.js';
export type * from './types.js';
