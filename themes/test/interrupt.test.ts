/** Ctrl-C during a command that writes: stop, then abort, then the signal's own effect. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForInterruption } from '../src/cli/interrupt.js';
import type { Output } from '../src/cli/output.js';

const output = { note: vi.fn() } as unknown as Output;

afterEach(() => vi.restoreAllMocks());

describe('listenForInterruption', () => {
  it('stops at the first signal, aborts at the second, and at the third stops listening and raises it again', () => {
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    const listeners = process.listenerCount('SIGINT');
    const interruption = listenForInterruption(output);
    try {
      process.emit('SIGINT', 'SIGINT');
      expect([interruption.stop.aborted, interruption.abort.aborted]).toEqual([true, false]);
      process.emit('SIGINT', 'SIGINT');
      expect(interruption.abort.aborted).toBe(true);
      expect(kill).not.toHaveBeenCalled();
      process.emit('SIGINT', 'SIGINT');
      expect(kill).toHaveBeenCalledWith(process.pid, 'SIGINT');
      expect(process.listenerCount('SIGINT')).toBe(listeners);
    } finally {
      interruption.dispose();
    }
  });
});
