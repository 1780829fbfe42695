/** `merge3` settling conflicting regions for one side (publish --ours / --theirs), and the regions it lists. */
import { describe, expect, it } from 'vitest';
import { conflictRegions, merge3 } from '../src/theme/merge.js';

const base = 'a\nb\nc\nd\ne\n';
const ours = 'a\nB-ours\nc\nd\ne\n';
const theirs = 'a\nB-theirs\nc\nd\nE-theirs\n';

describe('merge3 with a side favoured', () => {
  it('writes markers without one, and lists each region with both sides', () => {
    const merged = merge3(base, ours, theirs);
    expect(merged.conflicts).toBe(1);
    expect(conflictRegions(merged.text)).toEqual([{ ours: 'B-ours\n', theirs: 'B-theirs\n' }]);
    expect(merged.text).toContain('E-theirs\n');
  });

  it("takes that side's lines in a conflicting region and keeps the other side's changes elsewhere", () => {
    expect(merge3(base, ours, theirs, 'ours')).toEqual({ text: 'a\nB-ours\nc\nd\nE-theirs\n', conflicts: 1 });
    expect(merge3(base, ours, theirs, 'theirs')).toEqual({ text: 'a\nB-theirs\nc\nd\nE-theirs\n', conflicts: 1 });
    expect(conflictRegions(merge3(base, ours, theirs, 'ours').text)).toEqual([]);
  });
});
