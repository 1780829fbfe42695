/**
 * The sign-in prompt: which scope to ask for, each said with what its token shows and leaves out (the server
 * drops the links a scope may not use without a word), then off to the server's authorization page.
 */
import { h } from './dom.js';
import { SCOPES, type ScopeName } from './session.js';

export function signInView(onSignIn: (scope: ScopeName) => void, message?: string, scope?: ScopeName): HTMLElement {
  const names = Object.keys(SCOPES) as ScopeName[];
  const choices = names.map((name, i) =>
    h(
      'label',
      { class: 'choice' },
      h('input', {
        type: 'radio',
        name: 'scope',
        value: name,
        checked: scope ? name === scope : i === 0,
        'aria-describedby': `scope-${name}`,
      }),
      h('strong', null, name),
      h(
        'span',
        { id: `scope-${name}`, class: 'scope-text' },
        `: shows ${SCOPES[name].shows}. Leaves out ${SCOPES[name].hides}.`,
      ),
    ),
  );
  const form = h(
    'form',
    { class: 'sign-in' },
    h('fieldset', null, h('legend', null, 'Scope of the token'), ...choices),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
  );
  form.onsubmit = (event) => {
    event.preventDefault();
    onSignIn(new FormData(form).get('scope') as ScopeName);
  };
  return h(
    'section',
    { class: 'sign-in-panel', 'aria-labelledby': 'sign-in-title' },
    h('h2', { id: 'sign-in-title', tabindex: -1 }, 'Sign in'),
    message ? h('p', { class: 'message', role: 'alert' }, message) : null,
    h(
      'p',
      null,
      'The explorer calls the API with your token. Sign in on the server’s authorization page with your login ' +
        '(the server prints the demo login when it starts); the token comes back to this tab only and is not renewed: ' +
        'when it expires, sign in again.',
    ),
    form,
  );
}
