/**
 * The contract suite: every case runs against the reference server (Express over real HTTP) and against the
 * MSW handlers, from the same data, clock and credentials; then the two transcripts must be equal, exchange by
 * exchange: status, headers (all but the transport's), bodies (secrets masked by order of appearance).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { httpCases } from './cases/http-semantics.js';
import { oauthCases } from './cases/oauth.js';
import { resourceCases } from './cases/resources.js';
import { themeCases } from './cases/themes.js';
import type { ContractCase } from './cases/types.js';
import { type Exchange, Session } from './session.js';
import { expressTarget, mswTarget, type Target } from './target.js';

const CASES: ContractCase[] = [...oauthCases, ...resourceCases, ...themeCases, ...httpCases];

const transcripts: Record<Target['name'], Map<string, Exchange[]>> = { express: new Map(), msw: new Map() };

for (const target of [expressTarget(), mswTarget()]) {
  describe(`on ${target.name}`, () => {
    beforeAll(() => target.open());
    beforeEach(() => target.fresh());
    afterAll(() => target.close());
    for (const contractCase of CASES) {
      test(contractCase.name, { timeout: 10_000 }, async () => {
        const session = new Session(target);
        try {
          await contractCase.run(session);
        } finally {
          transcripts[target.name].set(contractCase.name, session.exchanges);
        }
      });
    }
  });
}

describe('Express and MSW answer alike', () => {
  for (const contractCase of CASES) {
    test(contractCase.name, ({ skip }) => {
      const express = transcripts.express.get(contractCase.name);
      const msw = transcripts.msw.get(contractCase.name);
      // Only when a filter ran one target without the other.
      if (!express || !msw) return skip();
      expect(express.length).toBeGreaterThan(0);
      for (let i = 0; i < Math.max(express.length, msw.length); i++) {
        expect(msw[i], `exchange ${i + 1}: ${express[i]?.label}`).toEqual(express[i]);
      }
    });
  }
});
