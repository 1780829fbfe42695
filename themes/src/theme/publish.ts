/**
 * `publish`: the development theme's templates and assets copied to the production theme, so that production
 * holds exactly the same files. Planned first (what will be created, updated, deleted in production) so that a
 * person can read it before anything is written.
 */
import type { Client } from '@storefront-platform/sdk';
import { CONCURRENCY, parallel } from './parallel.js';
import { PublishCutError } from './publish-cut.js';
import type { JournalWriter } from './publish-journal.js';
import type { PublishChange, PublishPlan } from './publish-plan.js';
import { contentOf, openTheme, themeFiles } from './remote.js';
import { actionOf, type FileResult, fileFailure, type OnProgress } from './results.js';
import { guardOf, writeFile } from './writes.js';

/**
 * Reads both themes of a shop and lists the differences, by MD5. Both are taken by their raw file names: the
 * folder's name rule guards the disk, and a copy between two themes writes nothing there.
 */
export async function planPublish(client: Client, shop?: string): Promise<PublishPlan> {
  const { shop: found, theme: development, production } = await openTheme(client, { shop, development: true });
  const files = { production: themeFiles(production), development: themeFiles(development) };
  const paths = new Set([...files.production.keys(), ...files.development.keys()]);
  const changes: PublishChange[] = [];
  for (const path of [...paths].sort()) {
    const [from, to] = [files.development.get(path), files.production.get(path)];
    if (from?.md5 === to?.md5) continue;
    const file = (from ?? to)!;
    changes.push({
      path,
      kind: file.kind,
      name: file.name,
      action: actionOf(to !== undefined, from !== undefined) as PublishChange['action'],
    });
  }
  return { shop: found, production, development, changes, files };
}

/** Options of {@link applyPublish}. */
export interface ApplyOptions {
  onProgress?: OnProgress;
  /** Where each step is recorded, before its request goes and once answered. */
  journal?: JournalWriter;
  /** Once aborted, no further request starts and those under way finish; its reason is the cut's cause. */
  stop?: AbortSignal;
  /** Aborts the requests under way too (and the client's retries of them). */
  abort?: AbortSignal;
}

/**
 * Applies a plan, deletions last (a publish cut short then leaves production with files too many rather than
 * files missing). A production template changed since the plan was read is a conflict, not overwritten: the
 * person approved the plan, not that change. Stopped before every change had its answer (the network, the
 * server, `stop`), it throws a {@link PublishCutError} with what was made and what was not.
 */
export async function applyPublish(plan: PublishPlan, options: ApplyOptions | OnProgress = {}): Promise<FileResult[]> {
  const { onProgress, journal, stop, abort } = typeof options === 'function' ? { onProgress: options } : options;
  const isDeletion = (change: PublishChange) => change.action === 'deleted';
  const order = [...plan.changes.filter((c) => !isDeletion(c)), ...plan.changes.filter(isDeletion)];
  const results: FileResult[] = [];
  const unanswered = new Map(plan.changes.map((change) => [change.path, change]));
  const sent = new Set<string>();
  let done = 0;
  let cause: unknown;
  try {
    await parallel(order, CONCURRENCY, async (change) => {
      if (stop?.aborted) throw stop.reason;
      const source = plan.files.development.get(change.path);
      const current = plan.files.production.get(change.path);
      let result: FileResult;
      try {
        const content = source && (await contentOf(source, abort));
        await journal?.record(change.path, 'sending');
        sent.add(change.path);
        const upload = { ...change, content };
        const { unchanged } = await writeFile(plan.production, upload, current, guardOf(undefined, current), abort);
        result = { path: change.path, kind: change.kind, action: unchanged ? 'unchanged' : change.action };
      } catch (error) {
        // Aborted on purpose: the request's outcome is unknown, not a failure of the file.
        if (abort?.aborted) throw error;
        result = fileFailure(change.path, change.kind, error);
      }
      unanswered.delete(change.path);
      results.push(result);
      await journal?.record(change.path, result.action, result.message);
      onProgress?.({ done: ++done, total: plan.changes.length, path: change.path });
    });
  } catch (error) {
    cause = error;
  }
  if (unanswered.size) {
    const unfinished = [...unanswered.values()].map((change) => ({ ...change, sent: sent.has(change.path) }));
    throw new PublishCutError(sorted(results), unfinished, cause ?? stop?.reason);
  }
  return sorted(results);
}

function sorted(files: FileResult[]): FileResult[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
