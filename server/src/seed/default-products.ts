// A module of its own, so that the CLI's usage text names it without loading the seed.

/** Default `SeedOptions.products`. */
export const DEFAULT_PRODUCTS = 300;
