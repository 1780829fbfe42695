/**
 * The contract suite: every case runs against the reference server (Express over real HTTP) and against the
 * MSW handlers, from the same data, clock and credentials, one after the other inside one test; then the two
 * transcripts must be equal, exchange by exchange: status, headers (all but the transport's), bodies (secrets
 * masked by order of appearance). Each test stands alone, so filters and shuffling leave every comparison made.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CASES, conformanceOf, expectSameTranscripts, transcript } from './compare.js';
import { expressTarget, mswTarget } from './target.js';

const express = expressTarget();
const msw = mswTarget();

beforeAll(async () => {
  await express.open();
  await msw.open();
});
afterAll(async () => {
  for (const target of [express, msw]) {
    console.info(`OpenAPI: ${(await conformanceOf(target)).checked} responses validated on ${target.name}`);
  }
  await express.close();
  await msw.close();
});

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
