/**
 * storefront-themes as a library: the pull, push, status, publish and watch of the `storefront-themes` command
 * line, over an SDK client you create, for scripts and tools of your own.
 */

export { CliError, ExitCode, UsageError } from './errors.js';
export { compare, type FileChange, type Side } from './theme/changes.js';
export { type FileKind, MANIFEST_FILE, type ThemeFileId } from './theme/layout.js';
export type { BaseEntry, Manifest } from './theme/manifest.js';
export { type ApplyOptions, applyPublish, planPublish } from './theme/publish.js';
export { PublishCutError, type UnfinishedChange } from './theme/publish-cut.js';
export {
  type JournalHeader,
  JournalWriter,
  journalHeader,
  type PublishJournal,
  readJournal,
} from './theme/publish-journal.js';
export type { PublishChange, PublishPlan } from './theme/publish-plan.js';
export { type PullOptions, type PullResult, pullTheme } from './theme/pull.js';
export { type PushOptions, type PushResult, pushTheme } from './theme/push.js';
export { type OpenedTheme, openTheme, previewUrl, type RemoteFile, type ThemeRef } from './theme/remote.js';
export type { FileAction, FileResult, OnProgress } from './theme/results.js';
export { type WatchOptions, type WatchResult, watchTheme } from './theme/watch.js';
export type { WatchEvent } from './theme/watch-machine.js';
export { openWorkspace, type Workspace } from './theme/workspace.js';
export { ConflictError } from './theme/writes.js';
