/**
 * The wire contract as data: `contract.generated.json`, written by scripts/openapi-contract.ts from sdk/src/contract
 * (`npm run docs`; test/docs/openapi-contract.test.ts fails when it is stale). JSON, not a module, because it is
 * generated data: nobody edits it, and nothing in it is code.
 */
import generated from './contract.generated.json' with { type: 'json' };
import type { Contract } from './contract-types.js';

/** The contract's wire types as JSON Schema 2020-12, and its representation table. */
export const CONTRACT = generated as unknown as Contract;
