/** Fault rules through the MSW mock's `faults`: the same scenarios as over HTTP (see fault-scenarios.ts). */
import { SandboxError } from '@storefront-platform/server/msw';
import { afterEach, describe } from 'vitest';
import { useMock } from '../msw/mocked.js';
import { type FaultDoor, faultScenarios, moreFaultScenarios } from './fault-scenarios.js';

const { mock } = useMock();
afterEach(() => mock.faults.clear());

const door = (): FaultDoor => ({
  add: async (rule) => mock.faults.add(rule),
  list: async () => mock.faults.list(),
  clear: async () => mock.faults.clear(),
  fetch: (path, init) => fetch(`${mock.origin}${path}`, init),
  refusal: SandboxError,
  token: async (scope) => (await mock.issueToken({ scope })).accessToken,
  origin: () => mock.origin,
  journal: async () => mock.journal.entries(),
});

describe('fault rules through MSW', () => {
  faultScenarios(door);
  moreFaultScenarios(door);
});
