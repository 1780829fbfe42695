/**
 * The contract suite (see `contract.test.ts`) with the reference server on the PostgreSQL store: a schema of
 * its own, reset to the data set before each case, against the same MSW handlers.
 */
import { createPostgresStore } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../support/postgres-server.js';
import { skipWithout } from '../support/requirement.js';
import { CASES, conformanceOf, expectSameTranscripts, transcript } from './compare.js';
import { expressTarget, mswTarget } from './target.js';

const skip = skipWithout(POSTGRES, 'The contract suite on PostgreSQL');

describe.skipIf(skip)('Express on PostgreSQL and MSW answer alike', () => {
  let schema: FreshSchema;
  const express = expressTarget((data) => createPostgresStore(schema.url, { reset: true, initial: () => data }));
  const msw = mswTarget();

  beforeAll(async () => {
    schema = await freshSchema();
    await express.open();
    await msw.open();
  });
  afterAll(async () => {
    for (const target of [express, msw]) {
      console.info(
        `OpenAPI: ${(await conformanceOf(target)).checked} responses validated on ${target.name} (PostgreSQL)`,
      );
    }
    await express.close();
    await msw.close();
    await schema?.drop();
  });

  for (const contractCase of CASES) {
    test(contractCase.name, { timeout: 20_000 }, async () => {
      const fromExpress = await transcript(express, contractCase);
      const fromMsw = await transcript(msw, contractCase);
      expectSameTranscripts(fromExpress, fromMsw);
    });
  }
});
