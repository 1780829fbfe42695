/**
 * storefront-themes as a library: the pull, push, status, publish, watch, check, list and live preview of the
 * `storefront-themes` command line, over an SDK client you create, for scripts and tools of your own.
 */

export { CliError, ExitCode, UsageError } from './errors.js';
export { compare, type FileChange, type Side } from './theme/changes.js';
export { type CheckedFile, type CheckInput, type CheckProblem, type CheckRule, checkTheme } from './theme/check.js';
export { folderCheckInput, themeCheckInput } from './theme/check-sources.js';
export {
  EVERY_FILE,
  type FileFilter,
  type FilterGlobs,
  folderFilter,
  globFilter,
  IGNORE_FILE,
} from './theme/file-filter.js';
export { type FileKind, MANIFEST_FILE, type ThemeFileId } from './theme/layout.js';
export { type ListedTheme, listThemes, type ThemeList } from './theme/list.js';
export { type LivePreview, type LivePreviewOptions, startLivePreview } from './theme/live-preview.js';
export type { BaseEntry, Manifest } from './theme/manifest.js';
export { hasConflictMarkers, MARKERS, type MergeResult, merge3 } from './theme/merge.js';
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
export {
  DEFAULT_INTERVAL_MS,
  type WatchOptions,
  type WatchResult,
  watchTheme,
} from './theme/watch.js';
export type { WatchEvent } from './theme/watch-machine.js';
export { openWorkspace, type Workspace } from './theme/workspace.js';
export { ConflictError } from './theme/writes.js';
