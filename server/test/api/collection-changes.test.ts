import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/support/manual-clock.js';
import { CollectionChanges } from '../../src/http/collection-changes.js';

const START = Date.UTC(2026, 10, 21, 9, 30, 0) + 200;

describe('CollectionChanges', () => {
  it('knows no change of collections as loaded, and dates a new revision by when it is first seen', () => {
    const clock = manualClock(START);
    const changes = new CollectionChanges(clock);
    expect(changes.latest([['shops', 0]])).toEqual({ at: 0, twice: false });
    clock.advance(5_000);
    expect(changes.latest([['shops', 3]])).toEqual({ at: START + 5_000, twice: false });
    clock.advance(5_000);
    // Seen before at this revision: still dated by the first look.
    expect(changes.latest([['shops', 3]])).toEqual({ at: START + 5_000, twice: false });
  });

  it('tells two changes within one second, but not one look that saw two collections move', () => {
    const clock = manualClock(START);
    const changes = new CollectionChanges(clock);
    changes.latest([
      ['orders', 0],
      ['shops', 0],
    ]);
    clock.advance(60_000);
    const both = changes.latest([
      ['orders', 1],
      ['shops', 1],
    ]);
    expect(both).toEqual({ at: START + 60_000, twice: false });
    clock.advance(300);
    expect(changes.latest([['orders', 2]])).toEqual({ at: START + 60_300, twice: true });
    clock.advance(2_000);
    expect(changes.latest([['orders', 3]])).toEqual({ at: START + 62_300, twice: false });
  });
});
