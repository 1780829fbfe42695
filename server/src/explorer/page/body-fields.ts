/**
 * A write's body as a form: a field per member of the prefilled body. Text is edited as text (a template's
 * `body` in the code editor, in its file's language), structured values as JSON in the editor, and the
 * lost-update guard `last_updated_on` comes filled in with what the page was shown, saying why.
 */
import type { CodeEditor, CodeLanguage } from './code-editor.js';
import { styleNonce } from './config.js';
import { h } from './dom.js';

/** Loads the code editor module (a chunk of its own); the dialog falls back to text areas when it cannot. */
export type EditorModule = typeof import('./code-editor.js');

/** One member of the body, as edited. */
export interface BodyField {
  name: string;
  element: HTMLElement;
  /** The element that takes focus and `aria-invalid`. */
  input: HTMLElement;
  /** The value to send, or the reason the text is not one; `undefined` leaves the member out. */
  read(): { value: unknown } | { problem: string } | undefined;
}

/** Members edited as source code, by name. */
const SOURCE = new Set(['body']);

const HINTS: Record<string, string> = {
  last_updated_on:
    'Filled in: the updated_on this page was shown. The server refuses the write if the template changed since.',
  body: 'The template source, as text: no JSON escaping.',
};

function textArea(id: string, text: string, labelledBy: string): CodeEditor {
  const area = h('textarea', { id, rows: 12, spellcheck: 'false', 'aria-labelledby': labelledBy }, text);
  return { text: () => area.value, focus: () => area.focus(), input: area };
}

function editorIn(
  box: HTMLElement,
  editors: EditorModule | undefined,
  options: { id: string; text: string; language: CodeLanguage; labelledBy: string; describedBy?: string },
): CodeEditor {
  if (editors) return editors.createCodeEditor(box, { ...options, nonce: styleNonce() });
  const area = textArea(options.id, options.text, options.labelledBy);
  box.append(area.input);
  return area;
}

/**
 * The fields of `body`. `fileName` picks the source's language; `editors` is the loaded code editor module
 * (`undefined`: plain text areas).
 */
export function bodyFields(
  body: Record<string, unknown>,
  fileName: string,
  editors: EditorModule | undefined,
): BodyField[] {
  return Object.entries(body).map(([name, value]) => {
    const id = `field-${name}`;
    const labelId = `${id}-label`;
    const hint = HINTS[name];
    const hintId = hint ? `${id}-hint` : undefined;
    const label = h('label', { id: labelId, for: id }, name);
    const hintElement = hint ? h('span', { id: hintId, class: 'muted' }, hint) : null;
    const wrap = (...children: HTMLElement[]) =>
      h('div', { class: 'field', 'data-field': name }, label, hintElement, ...children);
    if (typeof value === 'string' || value === undefined) {
      const text = value ?? '';
      if (SOURCE.has(name) || text.includes('\n')) {
        const box = h('div', { class: 'code-box' });
        const language = SOURCE.has(name) && editors ? editors.languageOfFile(fileName) : 'text';
        const editor = editorIn(box, editors, { id, text, language, labelledBy: labelId, describedBy: hintId });
        return { name, element: wrap(box), input: editor.input, read: () => ({ value: editor.text() }) };
      }
      const input = h('input', {
        id,
        value: text,
        spellcheck: 'false',
        autocomplete: 'off',
        'aria-describedby': hintId,
      });
      // A member that was not there to begin with (no updated_on to guard with) is sent only when filled in.
      const read = () => (value === undefined && input.value === '' ? undefined : { value: input.value });
      return { name, element: wrap(input), input, read };
    }
    const box = h('div', { class: 'code-box json' });
    const editor = editorIn(box, editors, {
      id,
      text: JSON.stringify(value, null, 2),
      language: 'json',
      labelledBy: labelId,
      describedBy: hintId,
    });
    label.append(h('span', { class: 'muted' }, ' (JSON)'));
    const read = () => {
      try {
        return { value: JSON.parse(editor.text()) as unknown };
      } catch (error) {
        return { problem: `${name} is not JSON: ${(error as Error).message}` };
      }
    };
    return { name, element: wrap(box), input: editor.input, read };
  });
}
