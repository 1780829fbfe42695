/**
 * The contract suite: every case runs against the reference server (Express over real HTTP) and against the
 * MSW handlers, from the same data, clock and credentials, one after the other inside one test; then the two
 * transcripts must be equal, exchange by exchange: status, headers (all but the transport's), bodies (secrets
 * masked by order of appearance). Each test stands alone, so filters and shuffling leave every comparison made.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { httpCases } from './cases/http-semantics.js';
import { oauthCases } from './cases/oauth.js';
import { pagingCases } from './cases/paging.js';
import { preconditionCases } from './cases/preconditions.js';
import { resourceCases } from './cases/resources.js';
import { securityCases } from './cases/security.js';
import { themeCases } from './cases/themes.js';
import type { ContractCase } from './cases/types.js';
import { type Exchange, Session } from './session.js';
import { expressTarget, mswTarget, type Target } from './target.js';

const CASES: ContractCase[] = [
  ...oauthCases,
  ...resourceCases,
  ...pagingCases,
  ...themeCases,
  ...httpCases,
  ...preconditionCases,
  ...securityCases,
];

const express = expressTarget();
const msw = mswTarget();

beforeAll(async () => {
  await express.open();
  await msw.open();
});
afterAll(async () => {
  await express.close();
  await msw.close();
});

/** Runs `contractCase` on fresh data of `target`; a failure of the case's own assertions names the target. */
async function transcript(target: Target, contractCase: ContractCase): Promise<Exchange[]> {
  await target.fresh();
  const session = new Session(target);
  try {
    await contractCase.run(session);
  } catch (error) {
    if (error instanceof Error) error.message = `on ${target.name}: ${error.message}`;
    throw error;
  }
  return session.exchanges;
}

/** Throws, naming the first exchange that differs, unless MSW answered exactly as Express did. */
function expectSameTranscripts(fromExpress: Exchange[], fromMsw: Exchange[]): void {
  expect(fromExpress.length).toBeGreaterThan(0);
  for (let i = 0; i < Math.max(fromExpress.length, fromMsw.length); i++) {
    expect(fromMsw[i], `exchange ${i + 1}: ${fromExpress[i]?.label ?? fromMsw[i]?.label}`).toEqual(fromExpress[i]);
  }
}

describe('Express and MSW answer alike', () => {
  for (const contractCase of CASES) {
    test(contractCase.name, { timeout: 20_000 }, async () => {
      const fromExpress = await transcript(express, contractCase);
      const fromMsw = await transcript(msw, contractCase);
      expectSameTranscripts(fromExpress, fromMsw);
    });
  }
});

describe('the comparison', () => {
  test('fails on one differing header, a missing exchange or an extra one', async () => {
    const [first] = CASES;
    const fromExpress = await transcript(express, first!);
    const fromMsw = await transcript(msw, first!);
    expectSameTranscripts(fromExpress, fromMsw);
    expect(fromMsw.length).toBeGreaterThan(1);

    const last = fromMsw.length - 1;
    const header = structuredClone(fromMsw);
    header[last]!.headers['cache-control'] = 'no-store, but not what Express said';
    expect(() => expectSameTranscripts(fromExpress, header)).toThrow(`exchange ${last + 1}`);
    expect(() => expectSameTranscripts(fromExpress, fromMsw.slice(0, last))).toThrow(`exchange ${last + 1}`);
    expect(() => expectSameTranscripts(fromExpress, [...fromMsw, fromMsw[0]!])).toThrow(`exchange ${last + 2}`);
  });
});
