export { DEFAULT_PRODUCTS } from './default-products.js';
export { type DemoCredentials, type SeededData, type SeedOptions, seed } from './seed.js';
