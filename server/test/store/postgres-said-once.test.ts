/**
 * The PostgreSQL store's trouble lines, on a fake clock: one line per incident however many connections it cut, at
 * most one per 10 s, and an incident inside those 10 s said when they end, not held until some later incident.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SaidOnce, saidOnce } from '../../src/store/postgres/postgres-session.js';

describe('connection troubles said once per incident', () => {
  let lines: string[];
  let teller: SaidOnce;
  /** `count` connections cut at once, the line naming `incident`. */
  const cut = (incident: string, count = 1) => {
    for (let i = 0; i < count; i++) teller.say(incident);
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    lines = [];
    teller = saidOnce((line) => lines.push(line));
  });
  afterEach(() => {
    teller.stop();
    vi.useRealTimers();
  });

  it('says an incident that cuts several connections in one line, and nothing later', () => {
    cut('first', 3);
    vi.advanceTimersByTime(500);
    cut('first');
    expect(lines).toEqual(['first']);
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(['first']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says incidents inside the quiet window when it closes, once, counting what it left out', () => {
    cut('first', 2);
    vi.advanceTimersByTime(4000);
    cut('second', 2);
    vi.advanceTimersByTime(4000);
    cut('third', 2);
    expect(lines).toEqual(['first']);
    vi.advanceTimersByTime(1999);
    expect(lines).toEqual(['first']);
    vi.advanceTimersByTime(1);
    // first's other connection, second's two, third's other one.
    expect(lines).toEqual(['first', 'third (and 4 more connection troubles since)']);
    vi.advanceTimersByTime(80_000);
    expect(lines).toHaveLength(2);
    cut('fourth', 2);
    expect(lines).toEqual(['first', 'third (and 4 more connection troubles since)', 'fourth']);
  });

  it('keeps at most one line per window while troubles go on', () => {
    for (let t = 0; t < 30_000; t += 2000) {
      cut('again');
      vi.advanceTimersByTime(2000);
    }
    // Said at 0, then at 10, 20 and 30 s the newest held one (a trouble at the instant of a line is its incident's).
    expect(lines).toEqual([
      'again',
      'again (and 3 more connection troubles since)',
      'again (and 4 more connection troubles since)',
      'again (and 4 more connection troubles since)',
    ]);
  });

  it('says a held incident when stopped, then nothing, and leaves no timer', () => {
    cut('first');
    vi.advanceTimersByTime(3000);
    cut('second');
    expect(vi.getTimerCount()).toBe(1);
    teller.stop();
    expect(lines).toEqual(['first', 'second']);
    expect(vi.getTimerCount()).toBe(0);
    cut('after');
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(['first', 'second']);
  });
});
