/**
 * The form a link needs before it can be followed, in a modal dialog: a field per template variable, a JSON
 * body editor for writes (prefilled from the resource), and for a delete, the question whether to go ahead.
 * The dialog keeps the keyboard inside it, Escape cancels, and focus returns to the control that opened it.
 */
import type { Link } from '@storefront-platform/sdk';
import { describeTemplateVariables, type TemplateVariable } from '@storefront-platform/sdk/internal';
import { prefilledBody } from './bodies.js';
import { h } from './dom.js';
import type { LinkTarget } from './link-controls.js';

/**
 * Follows the link with these arguments; resolves to a message to show in the dialog when the request failed
 * in a way the user can fix there (a 422), or `undefined` when the dialog is done.
 */
export type Submit = (args: Record<string, unknown>) => Promise<string | undefined>;

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

/** Reads the body editor: a JSON object, or the reason it is not one. */
function parseBody(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `The body is not JSON: ${(error as Error).message}`;
  }
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : 'The body must be a JSON object.';
}

export function openAction(dialog: HTMLDialogElement, { entity, link, subject }: LinkTarget, submit: Submit): void {
  const variables = formVariables(link);
  const body = prefilledBody(link.rel, link.method, entity.properties as Record<string, unknown>);
  const destructive = link.method === 'DELETE';
  const inputs = variables.map(({ name, required }) =>
    h('input', { id: `var-${name}`, name, required, spellcheck: 'false', autocomplete: 'off' }),
  );
  const editor = body
    ? h('textarea', { id: 'action-body', name: 'body', rows: 16, spellcheck: 'false' }, JSON.stringify(body, null, 2))
    : null;
  const problem = h('p', { id: 'action-error', class: 'error', role: 'alert' });
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
    h('p', { class: 'muted' }, `of ${subject} · `, h('code', null, link.href)),
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
    editor ? field('action-body', 'JSON body', editor) : null,
    destructive ? h('p', { class: 'warning' }, `Delete ${subject}? This cannot be undone.`) : null,
    problem,
    h('div', { class: 'actions' }, cancel, send),
  );
  cancel.onclick = () => dialog.close();
  form.onsubmit = async (event) => {
    event.preventDefault();
    const args: Record<string, unknown> = {};
    for (const input of inputs) if (input.value !== '') args[input.name] = input.value;
    if (editor) {
      const parsed = parseBody(editor.value);
      if (typeof parsed === 'string') {
        problem.textContent = parsed;
        editor.setAttribute('aria-invalid', 'true');
        editor.focus();
        return;
      }
      Object.assign(args, parsed);
    }
    send.disabled = true;
    const failure = await submit(args);
    send.disabled = false;
    if (failure === undefined) dialog.close();
    else problem.textContent = failure;
  };
  dialog.replaceChildren(form);
  dialog.showModal();
  // A delete starts on Cancel, so that Enter alone never deletes.
  (destructive ? cancel : (inputs[0] ?? editor ?? send)).focus();
}
