/**
 * `publish`: the development theme's changes since its base merged with production's (see publish-merge.ts) and
 * written to the production theme. Planned first (what will be created, updated, deleted in production, and what
 * conflicts) so that a person can read it before anything is written.
 */
import type { Client, Shop, Template, Theme } from '@storefront-platform/sdk';
import { NotFoundError } from '@storefront-platform/sdk';
import { md5 } from './digest.js';
import { CONCURRENCY, parallel } from './parallel.js';
import type { BaseFile } from './publish-base.js';
import { PublishCutError } from './publish-cut.js';
import type { JournalWriter } from './publish-journal.js';
import { mergeThemes } from './publish-merge.js';
import { type PublishChange, type PublishPlan, targetOf } from './publish-plan.js';
import { contentOf, openTheme, type RemoteFile, themeFiles } from './remote.js';
import { type FileResult, fileFailure, type OnProgress } from './results.js';
import { ConflictError, CREATE_ONLY, type Guard, guardOf, writeFile } from './writes.js';

/** Both themes of a shop as a publish reads them. */
export interface PublishThemes {
  shop: Shop;
  production: Theme;
  development: Theme;
  files: { production: Map<string, RemoteFile>; development: Map<string, RemoteFile> };
}

/**
 * Reads both themes of a shop. Both are taken by their raw file names: the folder's name rule guards the disk, and
 * a copy between two themes writes nothing there.
 */
export async function readPublishThemes(client: Client, shop?: string): Promise<PublishThemes> {
  const { shop: found, theme: development, production } = await openTheme(client, { shop, development: true });
  return {
    shop: found,
    production,
    development,
    files: { production: themeFiles(production), development: themeFiles(development) },
  };
}

/** What {@link planPublish} merges against. */
export interface PlanOptions {
  /** The base of the two themes; `undefined` when none is recorded (every difference is then a conflict). */
  base?: ReadonlyMap<string, BaseFile>;
  /** The base's text of a template by MD5, if kept. */
  text?: (md5: string) => Promise<string | undefined>;
  /** Settles the conflicts for the development theme (`ours`) or production (`theirs`). */
  favour?: 'ours' | 'theirs';
}

/** Lists what publishing would change, and the conflicts, from what both themes hold and their base. */
export async function planPublish(themes: PublishThemes, options: PlanOptions = {}): Promise<PublishPlan> {
  const { files } = themes;
  const merge = await mergeThemes({
    base: options.base,
    development: files.development,
    production: files.production,
    text: options.text ?? (async () => undefined),
    ...(options.favour ? { favour: options.favour } : {}),
  });
  return { ...themes, ...merge, based: options.base !== undefined };
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

/** What production gets for `change`: a template's body or an asset's bytes; `undefined` for a deletion. */
async function contentFor(plan: PublishPlan, change: PublishChange, signal?: AbortSignal) {
  if (change.action === 'deleted') return undefined;
  const { source } = change;
  if (source && 'text' in source) return source.text;
  const file = source ? plan.files[source.theme].get(source.path) : plan.files.development.get(change.path);
  return contentOf(file!, signal);
}

/**
 * The guard of the write of `change` over `current` (production's file as the plan read it), so that a change made
 * in production since is a conflict, never overwritten: a template's exact `updated_on`, or for one to create, a
 * guard no existing template passes; for a template to delete, its ETag, read now (an embedded one has none) and
 * only if it still holds what the plan read; for an asset to delete, its digest, which its ETag is.
 */
async function guardFor(change: PublishChange, current: RemoteFile | undefined, signal?: AbortSignal) {
  if (!current) return change.kind === 'template' ? CREATE_ONLY : undefined;
  if (change.action !== 'deleted') return guardOf(undefined, current);
  if (current.kind === 'asset') return { updated_on: current.updated_on, etag: `"${current.md5}"` } as Guard;
  const fresh = await current.entity.follow('self', undefined, signal ? { signal } : {}).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  if (!fresh) return undefined;
  if (md5((fresh as Template).properties.body) !== current.md5) throw new ConflictError(change.path, CHANGED_SINCE);
  const etag = fresh.response?.headers.get('etag');
  return etag ? { updated_on: current.updated_on, etag } : guardOf(undefined, current);
}

const CHANGED_SINCE = 'changed in production after the plan was read: not overwritten (run publish again)';

/**
 * Applies a plan, deletions last (a publish cut short then leaves production with files too many rather than
 * files missing). Production is read once more first: a file it changed since the plan (which the person approved)
 * is a conflict, not overwritten; each write is guarded too (see `guardFor`), for a change landing meanwhile.
 * Stopped before every change had its answer (the network, the server, `stop`), it throws a
 * {@link PublishCutError} with what was made and what was not.
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
  const finish = async (result: FileResult) => {
    unanswered.delete(result.path);
    results.push(result);
    await journal?.record(result.path, result.action, result.message);
    onProgress?.({ done: ++done, total: plan.changes.length, path: result.path });
  };
  try {
    const now = themeFiles(await plan.production.follow('self', undefined, abort ? { signal: abort } : {}));
    await parallel(order, CONCURRENCY, async (change) => {
      if (stop?.aborted) throw stop.reason;
      const current = plan.files.production.get(change.path);
      let result: FileResult;
      try {
        const fresh = now.get(change.path)?.md5 ?? null;
        if (fresh === targetOf(change, plan.files)) {
          // Another run of this publish (or the same edit) got there first: a deletion is done, a write unchanged.
          await finish({ path: change.path, kind: change.kind, action: isDeletion(change) ? 'deleted' : 'unchanged' });
          return;
        }
        if (fresh !== (current?.md5 ?? null)) throw new ConflictError(change.path, CHANGED_SINCE);
        const content = await contentFor(plan, change, abort);
        const guard = await guardFor(change, current, abort);
        await journal?.record(change.path, 'sending');
        sent.add(change.path);
        const upload = { ...change, content };
        const { unchanged } = await writeFile(plan.production, upload, current, guard, abort).catch(async (error) => {
          // Created meanwhile with these very contents (another publish of the same plan): nothing to do.
          if (!(error instanceof ConflictError) || current || content === undefined) throw error;
          const there = themeFiles(await plan.production.follow('self')).get(change.path);
          if (there?.md5 !== md5(content)) throw error;
          return { unchanged: true };
        });
        result = { path: change.path, kind: change.kind, action: unchanged ? 'unchanged' : change.action };
      } catch (error) {
        // Aborted on purpose: the request's outcome is unknown, not a failure of the file.
        if (abort?.aborted) throw error;
        result = fileFailure(change.path, change.kind, error);
      }
      await finish(result);
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
