/**
 * The form a link needs before it can be followed, in a modal dialog: a field per template variable, the body
 * of a write as a field per member (prefilled from the resource, see `body-fields.ts`), and for a delete, the
 * question whether to go ahead. The dialog keeps the keyboard inside it, Escape cancels, and focus returns to the
 * control that opened it. A refused write stays in the dialog with the reason said once and the fields marked.
 */
import type { Link } from '@storefront-platform/sdk';
import { describeTemplateVariables, type TemplateVariable } from '@storefront-platform/sdk/internal';
import { prefilledBody } from './bodies.js';
import { type BodyField, bodyFields, type EditorModule } from './body-fields.js';
import { h } from './dom.js';
import type { FailureText } from './failure-text.js';
import type { LinkTarget } from './link-controls.js';
import { variableArgs } from './variable-values.js';

/**
 * Follows the link with these arguments; resolves to what to show in the dialog when the request failed in a
 * way the user can fix there (a 412, a 422), or `undefined` when the dialog is done.
 */
export type Submit = (args: Record<string, unknown>) => Promise<FailureText | undefined>;

function field(id: string, label: string, input: HTMLElement, hint?: string): HTMLElement {
  if (hint) input.setAttribute('aria-describedby', `${id}-hint`);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    hint ? h('span', { id: `${id}-hint`, class: 'muted' }, hint) : null,
    input,
  );
}

/**
 * The fields of `link`'s form: its template variables as the SDK reads them, each once, required exactly when
 * the SDK will not expand the template without it. None for a malformed template: sending then shows the
 * SDK's reason.
 */
export function formVariables(link: Pick<Link, 'href' | 'templated'>): TemplateVariable[] {
  if (!link.templated) return [];
  try {
    return describeTemplateVariables(link.href);
  } catch {
    return [];
  }
}

let editorModule: Promise<EditorModule | undefined> | undefined;

/** The code editor chunk, fetched once; `undefined` when it cannot be had (the dialog then uses text areas). */
function loadEditors(): Promise<EditorModule | undefined> {
  editorModule ??= import('./code-editor.js').catch(() => {
    editorModule = undefined;
    return undefined;
  });
  return editorModule;
}

/** Shows `failure` in the problem box: the sentence, then each field once; marks the fields it names. */
function showFailure(problem: HTMLElement, fields: readonly BodyField[], failure: FailureText): void {
  problem.replaceChildren(h('span', null, failure.sentence));
  if (failure.fields.length) {
    problem.append(
      h(
        'ul',
        { class: 'field-errors' },
        ...failure.fields.map((f) => h('li', null, h('code', null, f.field), `: ${f.messages.join('; ')}`)),
      ),
    );
  }
  const named = new Set(failure.fields.map((f) => f.field));
  for (const { name, input } of fields) {
    if (named.has(name) || (name === 'last_updated_on' && named.has('updated_on'))) {
      input.setAttribute('aria-invalid', 'true');
    } else input.removeAttribute('aria-invalid');
  }
}

/** Opens the dialog for following `target`'s link; the code editor is loaded first when the body has source. */
export async function openAction(dialog: HTMLDialogElement, target: LinkTarget, submit: Submit): Promise<void> {
  const { entity, link, subject } = target;
  const variables = formVariables(link);
  const properties = entity.properties as Record<string, unknown>;
  const body = prefilledBody(link.rel, link.method, properties) as Record<string, unknown> | null;
  const destructive = link.method === 'DELETE';
  const editors = body ? await loadEditors() : undefined;
  const fileName = String(body?.file_name ?? properties.file_name ?? '');
  const fields = body ? bodyFields(body, fileName, editors) : [];
  const inputs = variables.map(({ name, required }) =>
    h('input', { id: `var-${name}`, name, required, spellcheck: 'false', autocomplete: 'off' }),
  );
  const problem = h('div', { id: 'action-error', class: 'error', role: 'alert' });
  const cancel = h('button', { type: 'button', value: 'cancel' }, 'Cancel');
  const send = h(
    'button',
    { type: 'submit', class: destructive ? 'danger' : 'primary' },
    destructive ? 'Delete' : `Send ${link.method}`,
  );
  const form = h(
    'form',
    { method: 'dialog', class: 'action-form' },
    h('h2', { id: 'action-title' }, `${link.method} `, h('code', null, link.rel)),
    h('p', { class: 'muted target' }, `of ${subject} · `, h('code', null, link.href)),
    inputs.length
      ? h(
          'fieldset',
          null,
          h('legend', null, 'Template variables'),
          ...variables.map((variable, i) =>
            field(`var-${variable.name}`, variable.name, inputs[i]!, variable.required ? 'required' : 'optional'),
          ),
        )
      : null,
    fields.length ? h('fieldset', { class: 'body' }, h('legend', null, 'Body'), ...fields.map((f) => f.element)) : null,
    destructive ? h('p', { class: 'warning' }, `Delete ${subject}? This cannot be undone.`) : null,
    problem,
    h('div', { class: 'actions' }, cancel, send),
  );
  cancel.onclick = () => dialog.close();
  form.onsubmit = async (event) => {
    event.preventDefault();
    const args = variableArgs(inputs);
    for (const bodyField of fields) {
      const read = bodyField.read();
      if (read && 'problem' in read) {
        showFailure(problem, fields, { sentence: read.problem, fields: [] });
        bodyField.input.setAttribute('aria-invalid', 'true');
        bodyField.input.focus();
        return;
      }
      if (read) args[bodyField.name] = read.value;
    }
    send.disabled = true;
    const failure = await submit(args);
    send.disabled = false;
    if (failure === undefined) dialog.close();
    else showFailure(problem, fields, failure);
  };
  dialog.replaceChildren(form);
  dialog.showModal();
  // A delete starts on Cancel, so that Enter alone never deletes. A write starts on its main field: the source.
  const source = fields.find((f) => f.name === 'body') ?? fields[0];
  (destructive ? cancel : (inputs[0] ?? source?.input ?? send)).focus();
}
