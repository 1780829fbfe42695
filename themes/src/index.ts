/**
 * storefront-themes is a command line tool; this entry is the small part of it that scripts call: pull, push and
 * watch a theme folder, and list a shop's themes, over an SDK client you create. The rest (publish, check, the
 * live preview, the merge and the journal) is reached through the `storefront-themes` command.
 */

export { CliError } from './errors.js';
export type { FileChange, Side } from './theme/changes.js';
export { type FileFilter, type FilterGlobs, folderFilter } from './theme/file-filter.js';
export { type ListedTheme, listThemes, type ThemeList } from './theme/list.js';
export type { BaseEntry, Manifest } from './theme/manifest.js';
export { type PullOptions, type PullResult, pullTheme } from './theme/pull.js';
export { PushCutShortError, type PushOptions, type PushResult, pushTheme } from './theme/push.js';
export type { ThemeRef } from './theme/remote.js';
export type { FileAction, FileResult, OnProgress } from './theme/results.js';
export { type WatchOptions, type WatchResult, watchTheme } from './theme/watch.js';
export type { WatchEvent } from './theme/watch-machine.js';
export type { Workspace } from './theme/workspace.js';
