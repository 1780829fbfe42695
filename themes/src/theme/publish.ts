/**
 * `publish`: the development theme's templates and assets copied to the production theme, so that production
 * holds exactly the same files. Planned first (what will be created, updated, deleted in production) so that a
 * person can read it before anything is written.
 */
import type { Client, Shop, Theme } from '@storefront-platform/sdk';
import type { FileKind } from './layout.js';
import { CONCURRENCY, parallel } from './parallel.js';
import { contentOf, openTheme, type RemoteFile, remoteFiles } from './remote.js';
import { actionOf, type FileAction, type FileResult, fileFailure, type OnProgress } from './results.js';
import { writeFile } from './writes.js';

/** A file production will receive. */
export interface PublishChange {
  path: string;
  kind: FileKind;
  name: string;
  action: Extract<FileAction, 'created' | 'updated' | 'deleted'>;
}

/** What publishing would change. */
export interface PublishPlan {
  shop: Shop;
  production: Theme;
  development: Theme;
  /** Empty when production already matches. */
  changes: PublishChange[];
  /** The files of each theme as read for the plan: writes are guarded by what production held then. */
  files: { production: Map<string, RemoteFile>; development: Map<string, RemoteFile> };
}

/** Reads both themes of a shop and lists the differences, by MD5. */
export async function planPublish(client: Client, shop?: string): Promise<PublishPlan> {
  const { shop: found, theme: development, production } = await openTheme(client, { shop, development: true });
  const files = { production: remoteFiles(production), development: remoteFiles(development) };
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

/**
 * Applies a plan. A production template changed since the plan was read is a conflict, not overwritten: the
 * person approved the plan, not that change.
 */
export async function applyPublish(plan: PublishPlan, onProgress?: OnProgress): Promise<FileResult[]> {
  const results: FileResult[] = [];
  let done = 0;
  await parallel(plan.changes, CONCURRENCY, async (change) => {
    const source = plan.files.development.get(change.path);
    const current = plan.files.production.get(change.path);
    try {
      const content = source && (await contentOf(source));
      await writeFile(plan.production, { ...change, content }, current, current?.updated_on);
      results.push({ path: change.path, kind: change.kind, action: change.action });
    } catch (error) {
      results.push(fileFailure(change.path, change.kind, error));
    }
    onProgress?.({ done: ++done, total: plan.changes.length, path: change.path });
  });
  return results.sort((a, b) => (a.path < b.path ? -1 : 1));
}
