/**
 * The contract suite's cases and how two transcripts of one case are made and compared, for the suite over each
 * of the server's stores (`contract.test.ts`: the JSON store's engine in memory; `contract-postgres.test.ts`).
 */
import { expect } from 'vitest';
import { embeddedCases } from './cases/embedded.js';
import { eventCases } from './cases/events.js';
import { httpCases } from './cases/http-semantics.js';
import { oauthCases } from './cases/oauth.js';
import { openApiCases } from './cases/openapi.js';
import { pagingCases } from './cases/paging.js';
import { preconditionCases } from './cases/preconditions.js';
import { resourceCases } from './cases/resources.js';
import { securityCases } from './cases/security.js';
import { themeCases } from './cases/themes.js';
import type { ContractCase } from './cases/types.js';
import { BASE } from './fixture.js';
import { Conformance } from './openapi-conformance.js';
import { type Exchange, Session } from './session.js';
import type { Target } from './target.js';

export const CASES: ContractCase[] = [
  ...oauthCases,
  ...resourceCases,
  ...embeddedCases,
  ...pagingCases,
  ...themeCases,
  ...httpCases,
  ...preconditionCases,
  ...securityCases,
  ...openApiCases,
  ...eventCases,
];

const documents = new Map<Target, Conformance>();

/**
 * The OpenAPI document `target` serves, which every response of its transcripts must match: read once per target,
 * outside any transcript (each target serves its own, so the MSW handlers' is checked as the server's is).
 */
export async function conformanceOf(target: Target): Promise<Conformance> {
  let conformance = documents.get(target);
  if (!conformance) {
    const response = await target.fetch(`${BASE}/openapi.json`, {});
    expect(response.status, `GET ${BASE}/openapi.json on ${target.name}`).toBe(200);
    conformance = new Conformance(await response.json());
    documents.set(target, conformance);
  }
  return conformance;
}

/**
 * Runs `contractCase` on fresh data of `target`, every response checked against the target's OpenAPI document; a
 * failure of the case's own assertions, or a response the document does not describe, names the target.
 */
export async function transcript(target: Target, contractCase: ContractCase): Promise<Exchange[]> {
  await target.fresh();
  const session = new Session(target, await conformanceOf(target));
  try {
    await contractCase.run(session);
  } catch (error) {
    if (error instanceof Error) error.message = `on ${target.name}: ${error.message}`;
    throw error;
  }
  return session.exchanges;
}

/** Throws, naming the first exchange that differs, unless MSW answered exactly as Express did. */
export function expectSameTranscripts(fromExpress: Exchange[], fromMsw: Exchange[]): void {
  expect(fromExpress.length).toBeGreaterThan(0);
  for (let i = 0; i < Math.max(fromExpress.length, fromMsw.length); i++) {
    expect(fromMsw[i], `exchange ${i + 1}: ${fromExpress[i]?.label ?? fromMsw[i]?.label}`).toEqual(fromExpress[i]);
  }
}
