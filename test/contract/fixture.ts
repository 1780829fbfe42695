/**
 * What both targets of the contract suite share, so that they answer alike to the byte: one data set, one
 * origin, one clock start, one token lifetime.
 */
import { seed } from '@storefront-platform/server';
import { type ManualClock, manualClock } from '../support/manual-clock.js';

/** The origin clients see on both targets (the Express server is given it as its public URL). */
export const ORIGIN = 'http://localhost:4000';
export const BASE = `${ORIGIN}/v1`;
export const START = Date.UTC(2026, 10, 21, 9, 30, 0);
export const TOKEN_TTL = 600;
export const REDIRECT_URI = 'http://localhost:8080/callback';

export const DEMO = {
  clientId: 'contract-app',
  clientSecret: 'contract-secret',
  login: 'demo',
  password: 'contract password',
} as const;

/** The demo data, seeded once: hashing the password is the slow part. Each target copies it. */
export const DATASET = seed({ ...DEMO, products: 12, orders: 6, redirectUris: [REDIRECT_URI] }).dataset;

/** A clock both targets read; each case starts it at {@link START} ({@link ManualClock.reset}). */
export const clock: ManualClock = manualClock(START);
