/**
 * The code editor of the edit dialogs: CodeMirror 6 with line numbers, the highlighting of the file's language
 * (HTML with its CSS and scripts, CSS, JavaScript, JSON) and the usual editing keys. This module is imported
 * with `import()` only, so that esbuild puts it and CodeMirror in a chunk of their own, loaded when an edit
 * dialog first opens; it imports nothing of the page, so that no chunk is shared with the page's script.
 * Tab is left to move focus (no tab trap in a modal dialog): indenting is Enter's job here.
 */
import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { basicSetup, EditorView } from 'codemirror';

/** The languages the editor highlights; `text` none. */
export type CodeLanguage = 'html' | 'css' | 'javascript' | 'json' | 'text';

/** What a dialog needs of an editor. */
export interface CodeEditor {
  /** The text as edited. */
  text(): string;
  focus(): void;
  /** The element that takes the keyboard (CodeMirror's content), for labels and `aria-invalid`. */
  readonly input: HTMLElement;
}

/** What an editor is made with. */
export interface CodeEditorOptions {
  text: string;
  language: CodeLanguage;
  /** The id the editable content gets, so that a `<label for>` and the tests find it. */
  id: string;
  /** Ids of the elements that name and describe it. */
  labelledBy: string;
  describedBy?: string;
  /** The page's style nonce: CodeMirror adds its styles as `<style>` elements, which the page's CSP lets in by it. */
  nonce?: string;
}

/**
 * Colours that keep 4.5:1 on the editor's white (CodeMirror's default style has lighter ones, which axe reports).
 */
const HIGHLIGHT = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.operatorKeyword], color: '#7a1f8c' },
  { tag: [tags.tagName, tags.angleBracket], color: '#1b5e20' },
  { tag: [tags.attributeName, tags.propertyName], color: '#8a4b00' },
  { tag: [tags.string, tags.attributeValue, tags.special(tags.string)], color: '#a11111' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: '#1f4fa8' },
  { tag: [tags.comment, tags.meta], color: '#5c5f66', fontStyle: 'italic' },
  { tag: [tags.definition(tags.variableName), tags.function(tags.variableName)], color: '#005a8c' },
  { tag: [tags.regexp, tags.escape], color: '#9c2a00' },
  { tag: tags.invalid, color: '#b00020' },
]);

const LANGUAGES = { html, css, javascript, json } as const;

/** The language of a file by its name's extension: templates are HTML, `.css`, `.js`, `.json` as named. */
export function languageOfFile(fileName: string): CodeLanguage {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'css') return 'css';
  if (ext === 'js' || ext === 'mjs') return 'javascript';
  if (ext === 'json') return 'json';
  if (ext === 'txt') return 'text';
  return 'html';
}

/**
 * Typing a close tag where the editor has just inserted the same one (the HTML mode writes `</p>` as `<p>` is
 * typed) types over it instead of doubling it: `<p>x</p>`, never `<p>x</p></p>`. Only close tags the editor
 * inserted are typed over, found by their position, which every edit moves along.
 */
function typeOverClosedTags() {
  let inserted: number[] = [];
  return [
    EditorView.updateListener.of((update) => {
      for (const tr of update.transactions) {
        if (tr.changes.empty) continue;
        inserted = inserted.map((pos) => tr.changes.mapPos(pos, 1));
        if (!tr.isUserEvent('input.complete')) continue;
        tr.changes.iterChanges((_fromA, _toA, fromB, _toB, text) => {
          if (/^<\/[\w:-]+>$/.test(text.toString())) inserted.push(fromB);
        });
      }
    }),
    EditorView.inputHandler.of((view, from, to, text) => {
      if (text !== '>' || from !== to || view.state.selection.ranges.length !== 1 || !inserted.includes(from)) {
        return false;
      }
      const { doc } = view.state;
      const name = /<\/([\w:-]+)$/.exec(doc.sliceString(Math.max(0, from - 64), from))?.[1];
      const tag = `</${name}>`;
      if (!name || doc.sliceString(from, from + tag.length) !== tag) return false;
      inserted = inserted.filter((pos) => pos !== from);
      // `</p` typed, `</p>` inserted after it: the `>` completes the typed one and the inserted one goes.
      view.dispatch({
        changes: { from, to: from + tag.length, insert: '>' },
        selection: { anchor: from + 1 },
        userEvent: 'input.type',
      });
      return true;
    }),
  ];
}

/** An editor appended to `parent`. */
export function createCodeEditor(parent: HTMLElement, options: CodeEditorOptions): CodeEditor {
  const { language } = options;
  const view = new EditorView({
    doc: options.text,
    parent,
    extensions: [
      syntaxHighlighting(HIGHLIGHT),
      basicSetup,
      // Before the language: its own input handler (the one that closes tags) comes after this one.
      language === 'html' ? typeOverClosedTags() : [],
      language === 'text' ? [] : LANGUAGES[language](),
      EditorView.lineWrapping,
      options.nonce ? EditorView.cspNonce.of(options.nonce) : [],
      EditorView.contentAttributes.of({
        id: options.id,
        // In the Tab order as any field (axe asks it of the scrolling box it fills).
        tabindex: '0',
        'aria-labelledby': options.labelledBy,
        ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
      }),
    ],
  });
  return { text: () => view.state.doc.toString(), focus: () => view.focus(), input: view.contentDOM };
}
