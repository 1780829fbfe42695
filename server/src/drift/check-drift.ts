/** `checkDrift`: where a live API of this kind disagrees with the contract the reference server implements. */
import { connectRemote, type RemoteApi } from '../remote/remote-api.js';
import { Recorder } from './recorder.js';
import { DriftCollector, type DriftReport } from './report.js';
import { DriftWalk } from './walk.js';

/** Default of {@link DriftOptions.sample}. */
export const DEFAULT_DRIFT_SAMPLE = 5;

/** What {@link checkDrift} reads, and how much of it. */
export interface DriftOptions extends RemoteApi {
  /** Reads per resource kind (products, orders, templates…), and per kind of linked file or page. Default 5. */
  sample?: number;
}

/**
 * Reads the API at `options.url` by its links through the SDK (signed in as {@link RemoteApi} says; only GETs)
 * and compares every answer with the contract, the OpenAPI document the reference server builds: fields, relations
 * and their methods, `_embedded` shapes, media types, validators and conditional reads. Ids, dates and other values
 * are not compared. Rejects with a `DriftUnreadableError` when the API cannot be read at all (a refused sign-in, a
 * network failure) and a `RemoteApiError` for a bad URL or credentials.
 */
export async function checkDrift(options: DriftOptions): Promise<DriftReport> {
  const sample = options.sample ?? DEFAULT_DRIFT_SAMPLE;
  if (!Number.isSafeInteger(sample) || sample < 1)
    throw new RangeError(`sample must be a whole number from 1, got ${sample}`);
  const recorder = new Recorder(options.fetch);
  const client = connectRemote({ ...options, fetch: recorder.fetch });
  // Ajv and the document's schemas load when drift runs: importing the package for `createServer` does not pay.
  const { ContractView } = await import('./contract-view.js');
  const view = new ContractView(options.url);
  const collector = new DriftCollector();
  const origin = new URL(options.url).origin;
  const walk = new DriftWalk(client, recorder, view, collector, sample, origin, options.concurrency ?? 4);
  await walk.run(options);
  return collector.report(options.url);
}
