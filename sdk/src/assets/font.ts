/**
 * What a font of each type must hold to be taken for one: its container's header with sane counts and a
 * table directory inside the file. The glyphs are left to the browser. Each check returns what is wrong, or
 * `undefined`.
 */
import { shownTag, startsWith, u16be, u32be } from './binary.js';

const TRUETYPE = [0x00, 0x01, 0x00, 0x00];

/**
 * A table directory of `count` records of `size` bytes from `start`, each naming its table by tag and giving the
 * table's offset and length (4 bytes each) at `at` in the record: every table must lie inside the file.
 */
function directoryProblem(b: Uint8Array, start: number, count: number, size: number, at: number): string | undefined {
  if (start + size * count > b.length) return 'its table directory runs past the end of the file';
  for (let i = 0; i < count; i++) {
    const record = start + size * i;
    if (u32be(b, record + at) + u32be(b, record + at + 4) > b.length) {
      return `its ${shownTag(b, record)} table lies outside the file`;
    }
  }
  return undefined;
}

/** An sfnt (TrueType or OpenType) table directory, its tables inside the file. */
function sfntProblem(b: Uint8Array): string | undefined {
  const tables = u16be(b, 4);
  if (tables === 0) return 'its table directory is empty';
  return directoryProblem(b, 12, tables, 16, 8);
}

/** `.ttf`: TrueType outlines (version 1.0, or Apple's `true`). */
export function ttfProblem(b: Uint8Array): string | undefined {
  if (!startsWith(b, TRUETYPE) && !startsWith(b, 'true')) return 'no TrueType header';
  return sfntProblem(b);
}

/** `.otf`: CFF outlines (`OTTO`), or TrueType ones in an OpenType file. */
export function otfProblem(b: Uint8Array): string | undefined {
  if (!startsWith(b, 'OTTO') && !startsWith(b, TRUETYPE)) return 'no OpenType header';
  return sfntProblem(b);
}

/** WOFF 1.0: the 44-byte header, whose length is the file's, and a table directory inside the file. */
export function woffProblem(b: Uint8Array): string | undefined {
  if (!startsWith(b, 'wOFF') || b.length < 44) return 'no WOFF header';
  if (u32be(b, 8) !== b.length) return 'the length in its header is not the file’s';
  const tables = u16be(b, 12);
  if (tables === 0 || u16be(b, 14) !== 0) return 'its header is malformed';
  return directoryProblem(b, 44, tables, 20, 4);
}

/** WOFF2: the 48-byte header, whose length is the file's, and tables whose compressed data fits in it. */
export function woff2Problem(b: Uint8Array): string | undefined {
  if (!startsWith(b, 'wOF2') || b.length < 48) return 'no WOFF2 header';
  if (u32be(b, 8) !== b.length) return 'the length in its header is not the file’s';
  if (u16be(b, 12) === 0 || u16be(b, 14) !== 0) return 'its header is malformed';
  if (48 + u32be(b, 20) > b.length) return 'its compressed tables run past the end of the file';
  return undefined;
}
