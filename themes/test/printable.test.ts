/** Server text shown in a terminal: nothing a terminal acts on gets through, and a long text is cut. */
import { describe, expect, it } from 'vitest';
import { printable, quoted } from '../src/printable.js';

describe('quoted and printable', () => {
  it('escape DEL, C1 controls and bidirectional marks, which JSON.stringify leaves as they are', () => {
    const name = 'a\u007fb\u009b31mc\u202edcba\u2066.html';
    expect(quoted(name)).toBe('"a\\u007fb\\u009b31mc\\u202edcba\\u2066.html"');
    expect(quoted(name)).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(quoted('\u001b[2J.html')).toBe('"\\u001b[2J.html"');
    expect(quoted(42)).toBe('42');
  });

  it('escape the C0 controls too in plain text', () => {
    expect(printable('Spring\u001b[31m\n\u200fSale')).toBe('Spring\\u001b[31m\\u000a\\u200fSale');
  });

  it('cut a long text', () => {
    expect(quoted('x'.repeat(1000))).toBe(`"${'x'.repeat(200)}…"`);
    expect(printable('y'.repeat(1000), 10)).toBe(`${'y'.repeat(10)}…`);
  });
});
