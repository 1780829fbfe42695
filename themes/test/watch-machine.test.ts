/**
 * The states of `watch`, one transition at a time: no folder, no timer, no server. The machine is told what happened
 * and answers with what to do (start a quiet time, send a file, wait before a retry, report an event).
 */

import type { FileResult } from '@storefront-platform/themes';
import { describe, expect, it } from 'vitest';
import type { ThemeFileId } from '../src/theme/layout.js';
import { type SendOutcome, WatchMachine } from '../src/theme/watch-machine.js';

const DEBOUNCE = 150;
const RETRY_DELAY = 30_000;

const file = (path: string): ThemeFileId => ({ kind: 'template', name: path, path });
const machine = () => new WatchMachine({ debounce: DEBOUNCE, retryDelay: RETRY_DELAY });

const result = (path: string, action: FileResult['action'], message?: string): FileResult => ({
  path,
  kind: 'template',
  action,
  ...(message ? { message } : {}),
});
const answered = (path: string, action: FileResult['action'], message?: string): SendOutcome => ({
  type: 'answered',
  files: [result(path, action, message)],
  ms: 12,
});
const down = new Error('connection refused');
const unreachable = (retryAfter?: number): SendOutcome => ({ type: 'unreachable', error: down, retryAfter });

/** A machine sending `path`, whose save settled. */
function sending(path = 'layout.html') {
  const m = machine();
  m.saved(file(path));
  expect(m.settled(path)).toEqual([{ type: 'send', file: file(path) }]);
  return m;
}

/** A machine that kept `paths` (the first failed, the others were in line), a save having earned a retry. */
function kept(...paths: string[]) {
  const m = sending(paths[0]);
  for (const path of paths.slice(1)) {
    m.saved(file(path));
    m.settled(path);
  }
  m.sent(paths[0]!, unreachable());
  for (const path of paths) expect(m.stateOf(path)).toEqual({ phase: 'kept', settling: false });
  return m;
}

describe('a file', () => {
  it('is idle until saved, then settles for the quiet time, which each save starts again', () => {
    const m = machine();
    expect(m.stateOf('layout.html')).toEqual({ phase: 'idle' });
    expect(m.saved(file('layout.html'))).toEqual([{ type: 'settle', path: 'layout.html', ms: DEBOUNCE }]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'settling' });
    expect(m.saved(file('layout.html'))).toEqual([{ type: 'settle', path: 'layout.html', ms: DEBOUNCE }]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'settling' });
  });

  it('is sent once settled, when nothing else is in flight', () => {
    const m = machine();
    m.saved(file('layout.html'));
    expect(m.settled('layout.html')).toEqual([{ type: 'send', file: file('layout.html') }]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'sending', settling: false, queued: false });
    expect(m.sending).toBe('layout.html');
  });

  it('waits its turn while another is in flight: files go one at a time, in the order they settled', () => {
    const m = sending('layout.html');
    for (const path of ['page.html', 'cart.html']) {
      m.saved(file(path));
      expect(m.settled(path)).toEqual([]);
      expect(m.stateOf(path)).toEqual({ phase: 'queued', settling: false });
    }
    expect(m.sent('layout.html', answered('layout.html', 'updated'))).toEqual([
      { type: 'report', event: { type: 'pushed', file: result('layout.html', 'updated'), ms: 12 } },
      { type: 'send', file: file('page.html') },
    ]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'idle' });
    expect(m.sent('page.html', answered('page.html', 'updated'))).toContainEqual({
      type: 'send',
      file: file('cart.html'),
    });
  });

  it('keeps its place in line when saved again while queued', () => {
    const m = sending('layout.html');
    for (const path of ['page.html', 'cart.html']) {
      m.saved(file(path));
      m.settled(path);
    }
    m.saved(file('page.html'));
    expect(m.stateOf('page.html')).toEqual({ phase: 'queued', settling: true });
    expect(m.settled('page.html')).toEqual([]);
    expect(m.stateOf('page.html')).toEqual({ phase: 'queued', settling: false });
    expect(m.sent('layout.html', { type: 'unchanged' })).toEqual([
      { type: 'report', event: { type: 'unchanged', path: 'layout.html' } },
      { type: 'send', file: file('page.html') },
    ]);
  });

  it('saved again while in flight goes again after it, once that save settles', () => {
    const m = sending('layout.html');
    m.saved(file('layout.html'));
    expect(m.stateOf('layout.html')).toEqual({ phase: 'sending', settling: true, queued: false });
    // Still settling when the request ends: it waits for its quiet time.
    const settlingAfter = sending('layout.html');
    settlingAfter.saved(file('layout.html'));
    expect(settlingAfter.sent('layout.html', answered('layout.html', 'updated'))).toHaveLength(1);
    expect(settlingAfter.stateOf('layout.html')).toEqual({ phase: 'settling' });
    // Settled before the request ends: it is in line, and goes as soon as the request ends.
    expect(m.settled('layout.html')).toEqual([]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'sending', settling: false, queued: true });
    expect(m.sent('layout.html', answered('layout.html', 'updated'))).toEqual([
      { type: 'report', event: { type: 'pushed', file: result('layout.html', 'updated'), ms: 12 } },
      { type: 'send', file: file('layout.html') },
    ]);
  });

  it('in conflict is reported and idle: its next save sends it again', () => {
    const m = sending();
    const conflict = result('layout.html', 'conflict', 'changed on the server too');
    expect(m.sent('layout.html', { type: 'answered', files: [conflict], ms: 5 })).toEqual([
      { type: 'report', event: { type: 'conflict', file: conflict } },
    ]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'idle' });
    m.saved(file('layout.html'));
    expect(m.settled('layout.html')).toEqual([{ type: 'send', file: file('layout.html') }]);
  });

  it('refused by the server, in its answer or by an error, is reported as not kept, and idle', () => {
    const m = sending();
    expect(m.sent('layout.html', answered('layout.html', 'failed', 'body too large'))).toEqual([
      {
        type: 'report',
        event: { type: 'failed', path: 'layout.html', error: new Error('body too large'), kept: false, waiting: 0 },
      },
    ]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'idle' });
    const forbidden = new Error('403');
    const n = sending();
    expect(n.sent('layout.html', { type: 'refused', error: forbidden })).toEqual([
      { type: 'report', event: { type: 'failed', path: 'layout.html', error: forbidden, kept: false, waiting: 0 } },
    ]);
    expect(n.stateOf('layout.html')).toEqual({ phase: 'idle' });
  });

  it('that is a symbolic link is reported as ignored, and idle', () => {
    const m = sending('404.html');
    const reason = '404.html is a symbolic link';
    expect(m.sent('404.html', { type: 'ignored', reason })).toEqual([
      { type: 'report', event: { type: 'ignored', path: '404.html', reason } },
    ]);
    expect(m.stateOf('404.html')).toEqual({ phase: 'idle' });
  });

  it('unchanged is reported as such, nothing being sent', () => {
    const m = sending();
    expect(m.sent('layout.html', { type: 'unchanged' })).toEqual([
      { type: 'report', event: { type: 'unchanged', path: 'layout.html' } },
    ]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'idle' });
  });

  it('whose request is in flight has the retries the client announces', () => {
    const m = machine();
    const retry = { attempt: 1, delay: 300, error: down };
    expect(m.retrying(retry)).toEqual([]);
    m.saved(file('layout.html'));
    m.settled('layout.html');
    expect(m.retrying(retry)).toEqual([
      { type: 'report', event: { type: 'retrying', path: 'layout.html', error: down, attempt: 1, delay: 300 } },
    ]);
  });
});

describe('a file the network or the server failed', () => {
  it('is kept with the files in line after it, and tried on its own after the retry delay, a save having earned it', () => {
    const m = sending('layout.html');
    expect(m.retry).toBe('earned');
    for (const path of ['page.html', 'cart.html']) {
      m.saved(file(path));
      m.settled(path);
    }
    expect(m.sent('layout.html', unreachable())).toEqual([
      { type: 'retry', ms: RETRY_DELAY },
      {
        type: 'report',
        event: { type: 'failed', path: 'layout.html', error: down, kept: true, waiting: 3, retryIn: RETRY_DELAY },
      },
    ]);
    expect(m.retry).toBe('scheduled');
    for (const path of ['layout.html', 'page.html', 'cart.html']) {
      expect(m.stateOf(path)).toEqual({ phase: 'kept', settling: false });
    }
    // Kept in order, the failed one first.
    expect(m.retryDue()).toEqual([{ type: 'send', file: file('layout.html') }]);
    expect(m.stateOf('page.html')).toEqual({ phase: 'queued', settling: false });
    expect(m.sent('layout.html', { type: 'unchanged' })).toEqual([
      { type: 'report', event: { type: 'unchanged', path: 'layout.html' } },
      { type: 'send', file: file('page.html') },
    ]);
  });

  it("waits as long as the server's Retry-After asks, when longer than the retry delay", () => {
    const longer = sending();
    expect(longer.sent('layout.html', unreachable(120_000))).toContainEqual({ type: 'retry', ms: 120_000 });
    const shorter = sending();
    expect(shorter.sent('layout.html', unreachable(1000))).toContainEqual({ type: 'retry', ms: RETRY_DELAY });
  });

  it('failing again on its own waits for the next save: only a save earns another attempt', () => {
    const m = kept('layout.html');
    expect(m.retryDue()).toEqual([{ type: 'send', file: file('layout.html') }]);
    expect(m.retry).toBe('unearned');
    expect(m.sent('layout.html', unreachable(120_000))).toEqual([
      { type: 'report', event: { type: 'failed', path: 'layout.html', error: down, kept: true, waiting: 1 } },
    ]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'kept', settling: false });
  });

  it('goes after the next save of any file, which earns the retry again', () => {
    const m = kept('layout.html', 'page.html');
    m.retryDue();
    m.sent('layout.html', unreachable());
    expect(m.retry).toBe('unearned');
    m.saved(file('cart.html'));
    expect(m.settled('cart.html')).toEqual([{ type: 'send', file: file('cart.html') }]);
    expect(m.retry).toBe('earned');
    expect(m.stateOf('layout.html')).toEqual({ phase: 'queued', settling: false });
    expect(m.sent('cart.html', answered('cart.html', 'updated'))).toContainEqual({
      type: 'send',
      file: file('layout.html'),
    });
    expect(m.sent('layout.html', answered('layout.html', 'updated'))).toContainEqual({
      type: 'send',
      file: file('page.html'),
    });
  });

  it('saved again goes first once that save settles, the other kept files after it', () => {
    const m = kept('layout.html', 'page.html');
    m.saved(file('page.html'));
    expect(m.stateOf('page.html')).toEqual({ phase: 'kept', settling: true });
    expect(m.settled('page.html')).toEqual([{ type: 'send', file: file('page.html') }]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'queued', settling: false });
  });

  it('saved again while in flight is kept once, still settling', () => {
    const m = sending();
    m.saved(file('layout.html'));
    m.sent('layout.html', unreachable());
    expect(m.stateOf('layout.html')).toEqual({ phase: 'kept', settling: true });
    expect(m.unsent()).toEqual(['layout.html']);
  });
});

describe('the watch', () => {
  it('runs until stopped; stopping, it takes no save and sends nothing more', () => {
    const m = sending('layout.html');
    m.saved(file('page.html'));
    m.settled('page.html');
    expect(m.phase).toBe('running');
    m.stop();
    expect(m.phase).toBe('stopping');
    expect(m.saved(file('cart.html'))).toEqual([]);
    expect(m.stateOf('cart.html')).toEqual({ phase: 'idle' });
    // The request in flight ends and is reported; the next in line stays there.
    expect(m.sent('layout.html', answered('layout.html', 'updated'))).toEqual([
      { type: 'report', event: { type: 'pushed', file: result('layout.html', 'updated'), ms: 12 } },
    ]);
    expect(m.unsent()).toEqual(['page.html']);
  });

  it('stopped mid-request keeps the file silently, with no retry', () => {
    const m = sending('layout.html');
    m.saved(file('page.html'));
    m.settled('page.html');
    m.stop();
    expect(m.sent('layout.html', unreachable())).toEqual([]);
    expect(m.stateOf('layout.html')).toEqual({ phase: 'kept', settling: false });
  });

  it('lists as unsent, sorted, the files kept, in line and settling', () => {
    const m = kept('page.html', 'layout.html');
    m.saved(file('index.html'));
    m.saved(file('cart.html'));
    m.settled('cart.html');
    m.stop();
    m.sent('cart.html', unreachable());
    expect(m.unsent()).toEqual(['cart.html', 'index.html', 'layout.html', 'page.html']);
  });
});
