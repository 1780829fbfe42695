/**
 * Text from the server made fit for a terminal. A server's file names, theme titles and error messages are its own
 * word: printed as they come, a control character or escape sequence (C0, DEL, C1 such as U+009B, which some
 * terminals take for CSI) or a bidirectional override would let it move the cursor, recolour the screen or make a
 * name read as another. Every one of them is shown as a `\uXXXX` escape, and a long text is cut.
 */

/** Longest text shown, in UTF-16 units, before it is cut with `…`. */
export const MAX_SHOWN = 200;

/** What JSON.stringify leaves as it is but a terminal may act on: DEL, C1 controls, bidirectional marks. */
const UNSAFE = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** All of those and the C0 controls, which JSON.stringify escapes but plain text does not. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_PLAIN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** `value` as a JSON string (or JSON of another type), quoted, with nothing a terminal acts on, cut at `max`. */
export function quoted(value: unknown, max = MAX_SHOWN): string {
  const json = typeof value === 'string' ? JSON.stringify(cut(value, max)) : cut(String(JSON.stringify(value)), max);
  return json.replace(UNSAFE, escaped);
}

/** `text` as it reads, but every character a terminal acts on escaped, cut at `max`. */
export function printable(text: string, max = MAX_SHOWN): string {
  return cut(text, max).replace(UNSAFE_PLAIN, escaped);
}

/** `text` as {@link printable} shows it, but whole: a message or a folder whose end matters. */
export function printableWhole(text: string): string {
  return printable(text, Number.POSITIVE_INFINITY);
}
