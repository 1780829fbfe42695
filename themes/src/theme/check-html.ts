/**
 * The structure of an HTML template: every element opened is closed, in order, and no end tag closes nothing. A
 * scan of tags, not a parser: HTML lets many end tags go unsaid (`</p>`, `</li>`, `</td>`…) and has elements that
 * never close (`<img>`), so only what a browser would have to repair by guessing is reported. Comments, the
 * doctype and the text of `<script>`, `<style>`, `<textarea>` and `<title>` are skipped; the tags' attributes
 * are read with their quotes, so a `>` inside a value does not end a tag.
 */

/** A problem at a place in the text (1-based line and column). */
export interface TextProblem {
  line: number;
  column: number;
  message: string;
}

const VOID = new Set(
  'area base br col embed hr img input link meta param source track wbr keygen'.split(' ').map((t) => t),
);
/** Elements whose end tag may be left out (HTML's "optional tags"). */
const OPTIONAL_END = new Set(
  'html head body p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rtc rp'.split(' '),
);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

/** A tag, a comment or a doctype: the tags' attribute values in quotes may hold `>`. */
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

/** Line and column of each offset, from the offsets of the line starts. */
export function locator(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

/** The structural problems of `text`, in order. */
export function checkHtmlStructure(text: string): TextProblem[] {
  const at = locator(text);
  const problems: TextProblem[] = [];
  const open: { name: string; offset: number }[] = [];
  const report = (offset: number, message: string) => problems.push({ ...at(offset), message });
  const unclosed = (element: { name: string; offset: number }, before: string) => {
    const where = at(element.offset);
    report(element.offset, `<${element.name}> opened at ${where.line}:${where.column} is not closed ${before}`);
  };
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    if (match[0].startsWith('<!')) {
      if (match[0].startsWith('<!--') && !match[0].endsWith('-->')) report(match.index, 'comment not closed (-->)');
      continue;
    }
    const [, slash, rawName, , selfClosing] = match;
    const name = rawName!.toLowerCase();
    if (!slash) {
      if (VOID.has(name) || selfClosing) continue;
      if (RAW_TEXT.has(name)) {
        const end = text.toLowerCase().indexOf(`</${name}`, TOKEN.lastIndex);
        if (end === -1) {
          report(match.index, `<${name}> is not closed`);
          break;
        }
        // Past its end tag, which closes it.
        const close = text.indexOf('>', end);
        TOKEN.lastIndex = close === -1 ? text.length : close + 1;
        continue;
      }
      open.push({ name, offset: match.index });
      continue;
    }
    if (VOID.has(name)) continue;
    const index = open.findLastIndex((element) => element.name === name);
    if (index === -1) {
      report(match.index, `</${name}> closes no open <${name}>`);
      continue;
    }
    for (const element of open.splice(index).slice(1)) {
      if (!OPTIONAL_END.has(element.name)) unclosed(element, `before </${name}>`);
    }
  }
  for (const element of open) if (!OPTIONAL_END.has(element.name)) unclosed(element, 'by the end of the file');
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}
