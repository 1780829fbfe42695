export { DEFAULT_PRODUCTS, type DemoCredentials, type SeededData, type SeedOptions, seed } from './seed.js';
