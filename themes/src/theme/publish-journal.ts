/**
 * The journal of a publish: `.storefront-publish.jsonl` in the theme folder, JSON Lines, appended to as the
 * publish goes and removed once every change has had its answer. So when a publish is cut (the network, Ctrl-C, a
 * crash, SIGKILL), the folder still says what it set out to do and how far it got, and the next publish resumes it.
 *
 * The first line is the {@link JournalHeader}: the plan as approved, and how many files production held before.
 * Then one {@link JournalStep} per line: `sending` before each request goes, then its outcome once answered. A
 * line cut by a crash is ignored. What the server holds stays the truth (the next run plans again from it); the
 * journal says what the run was about, so that the next one can tell a resume from a new publish, measure the
 * development theme against production as it was before the first deletion, and report the whole publish.
 */
import { constants } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { NOFOLLOW, readInside, UnsafePathError } from './confined.js';
import type { BaseFile } from './publish-base.js';
import { type PublishChange, type PublishPlan, targetOf } from './publish-plan.js';
import type { FileAction } from './results.js';

/** One change of the plan (a merge's text left out), with the MD5s that tell it apart. */
export interface JournalChange extends Omit<PublishChange, 'source'> {
  /** The development theme's file at its path, `null` where it has none: what the base moves to once made. */
  md5: string | null;
  /** What production holds once it is made (`null`: deleted); absent in journals of earlier versions. */
  target?: string | null;
}

/** The first line: which publish this is. */
export interface JournalHeader {
  journal: 'storefront-themes publish';
  version: 1;
  /** When the publish began (ISO 8601); a resumed publish keeps it. */
  started_on: string;
  /** The shop's id. */
  shop: string;
  /** The production theme's `self`, and how many files it held when the publish began. */
  production: { href: string; files: number };
  /** The development theme's `self`. */
  development: { href: string };
  /** Every change of the plan, in the order given. */
  changes: JournalChange[];
}

/** A line after the header: a request about to go (`sending`), or its outcome. */
export interface JournalStep {
  /** When the line was written (ISO 8601). */
  at: string;
  /** The change's path, as in {@link JournalHeader.changes}. */
  path: string;
  /** `sending` just before its request goes; then the outcome its answer gave (or `failed` without one). */
  step: 'sending' | FileAction;
  /** Why it failed or was a conflict, as reported. */
  message?: string;
}

/** A journal as read back. */
export interface PublishJournal {
  /** Where it was read from. */
  file: string;
  header: JournalHeader;
  /** Each change's last step, by path; a change without one was never sent. */
  steps: Map<string, JournalStep>;
}

/** The header of a journal for `plan`, read before its first write. */
export function journalHeader(plan: PublishPlan): JournalHeader {
  return {
    journal: 'storefront-themes publish',
    version: 1,
    started_on: new Date().toISOString(),
    shop: plan.shop.properties.id,
    production: { href: plan.production.link('self').expand(), files: plan.files.production.size },
    development: { href: plan.development.link('self').expand() },
    changes: plan.changes.map(({ source: _, ...change }, at) => ({
      ...change,
      md5: plan.files.development.get(change.path)?.md5 ?? null,
      target: targetOf(plan.changes[at]!, plan.files),
    })),
  };
}

/** The journal at `file`: `undefined` when there is none, `'damaged'` when its header cannot be read. */
export async function readJournal(file: string): Promise<PublishJournal | 'damaged' | undefined> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readInside(dirname(file), basename(file));
  } catch (error) {
    // Never through a symbolic link: a link (or anything but a file) in its place is damaged, and set aside.
    if (error instanceof UnsafePathError) return 'damaged';
    throw error;
  }
  if (!bytes) return undefined;
  const [first, ...rest] = bytes.toString('utf8').split('\n');
  const header = parseLine(first) as JournalHeader | undefined;
  if (header?.journal !== 'storefront-themes publish' || header.version !== 1 || !Array.isArray(header.changes)) {
    return 'damaged';
  }
  const steps = new Map<string, JournalStep>();
  for (const line of rest) {
    const step = parseLine(line) as JournalStep | undefined;
    if (typeof step?.path === 'string' && typeof step.step === 'string') steps.set(step.path, step);
  }
  return { file, header, steps };
}

function parseLine(line: string | undefined): unknown {
  try {
    return line ? JSON.parse(line) : undefined;
  } catch {
    // The last line of a journal cut by a crash.
    return undefined;
  }
}

/**
 * Whether `journal` is the unfinished part of `plan`: the same shop and themes, and every change still to make
 * one the journal planned, copying the same development file. Else the reason it is not (another pair of themes,
 * or a theme changed since), to say why it is set aside.
 */
export function journalFit(journal: PublishJournal, plan: PublishPlan): 'resume' | string {
  const { header } = journal;
  const [production, development] = [plan.production.link('self').expand(), plan.development.link('self').expand()];
  if (header.shop !== plan.shop.properties.id || header.production.href !== production) {
    return `it is of a publish to ${header.production.href}`;
  }
  if (header.development.href !== development) return `it is of a publish from ${header.development.href}`;
  const planned = new Map(header.changes.map((change) => [change.path, change]));
  for (const change of plan.changes) {
    const was = planned.get(change.path);
    const md5 = plan.files.development.get(change.path)?.md5 ?? null;
    const changed = was?.target !== undefined && was.target !== targetOf(change, plan.files);
    if (!was || was.md5 !== md5 || changed) return `the themes changed since (${change.path})`;
  }
  return 'resume';
}

/**
 * Whether `journal` is of a publish between these two themes (`self`s), whatever its changes: then what it made
 * moves the base (see {@link foldJournal}).
 */
export function journalOf(journal: PublishJournal, development: string, production: string): boolean {
  return journal.header.development.href === development && journal.header.production.href === production;
}

/** The outcomes of a change that production got (or already held): the publish made it. */
const MADE: ReadonlySet<JournalStep['step']> = new Set(['created', 'updated', 'deleted', 'unchanged']);

/**
 * Moves `base` past each change of `journal` that was made, to the development theme's file the change was planned
 * from, as a publish that completes moves it: so the next plan sees those files as published, not as changed on
 * both sides, and resumes with the rest. Made: answered as made in the journal (then whatever production holds
 * now is production's own change since, a merchant's edit to a file the publish created, say, which the next plan
 * keeps or merges), or, for a request cut without an answer, what production now holds (`production`: its files
 * now) being the change's target.
 */
export function foldJournal(
  journal: PublishJournal,
  base: Map<string, BaseFile>,
  production: ReadonlyMap<string, { md5: string }>,
): void {
  for (const change of journal.header.changes) {
    const answered = MADE.has(journal.steps.get(change.path)?.step ?? 'sending');
    const held = change.target !== undefined && (production.get(change.path)?.md5 ?? null) === change.target;
    if (!answered && !held) continue;
    if (change.md5 === null) base.delete(change.path);
    else base.set(change.path, { kind: change.kind, md5: change.md5 });
  }
}

/** Appends a publish's steps to its journal, each on disk before the request it announces goes. */
export class JournalWriter {
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
  ) {}

  /** A new journal at `file`, where none is (see {@link setAsideJournal}), starting with `header`. */
  static async start(file: string, header: JournalHeader): Promise<JournalWriter> {
    // A new file, never one a symbolic link in its place points to (O_EXCL), nor one already there.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | NOFOLLOW;
    const writer = new JournalWriter(file, await open(file, flags, 0o644));
    await writer.handle.appendFile(`${JSON.stringify(header)}\n`);
    return writer;
  }

  /** The journal at `file` continued by a run that resumes it. */
  static async resume(file: string): Promise<JournalWriter> {
    const writer = new JournalWriter(file, await open(file, constants.O_RDWR | constants.O_APPEND | NOFOLLOW));
    // A line cut by a crash would swallow the next one: start on a line of its own.
    const text = await writer.handle.readFile('utf8');
    if (text && !text.endsWith('\n')) await writer.handle.appendFile('\n');
    return writer;
  }

  /** Records a step of `path`; resolves once it is written. */
  record(path: string, step: JournalStep['step'], message?: string): Promise<void> {
    const line: JournalStep = { at: new Date().toISOString(), path, step, ...(message ? { message } : {}) };
    // One append at a time: concurrent writes to one handle may interleave.
    const written = this.#queue.then(() => this.handle.appendFile(`${JSON.stringify(line)}\n`));
    this.#queue = written.catch(() => {});
    return written;
  }

  /** Closes the file, keeping it: the publish did not finish. */
  async close(): Promise<void> {
    await this.#queue;
    await this.handle.close();
  }

  /** Closes and deletes the file: every change had its answer. */
  async remove(): Promise<void> {
    await this.close();
    await removeJournal(this.file);
  }
}

/** Deletes the journal at `file`, if any: its publish is complete. */
export async function removeJournal(file: string): Promise<void> {
  await rm(file, { force: true });
}

/**
 * Moves the journal at `file` (or whatever is in its place) to `file.old`, replacing an older one, and returns that
 * name: a journal that no longer applies is kept for a person to read, never deleted.
 */
export async function setAsideJournal(file: string): Promise<string> {
  const aside = `${file}.old`;
  await rename(file, aside);
  return aside;
}
