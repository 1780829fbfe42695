/**
 * A failed call: what went wrong in one sentence, the field errors of a 422 once each, the body the server sent,
 * and for a 403 the sign-in again with the scope the server names in `X-Accepted-OAuth-Scopes`.
 */
import { HttpError, StorefrontError } from '@storefront-platform/sdk';
import { statusText } from './answer-view.js';
import { h } from './dom.js';
import { failureText } from './failure-text.js';
import { acceptedScope } from './scope-notes.js';
import type { ScopeName } from './session.js';

/** The view of a failed call; `onSignIn` starts a sign-in with the scope a 403 asks for. */
export function errorView(error: unknown, onSignIn: (scope: ScopeName) => void): HTMLElement {
  const http = error instanceof HttpError ? error : undefined;
  const title = http ? statusText(http.status) : error instanceof StorefrontError ? error.code : 'Error';
  const { sentence, fields } = failureText(error);
  const scope = http?.status === 403 ? acceptedScope(http.headers['x-accepted-oauth-scopes']) : undefined;
  let again: HTMLElement | null = null;
  if (scope) {
    const button = h('button', { type: 'button', class: 'primary' }, `Sign in again with ${scope}`);
    button.onclick = () => onSignIn(scope);
    // The server's sentence above already names the scope.
    again = h('p', { class: 'sign-in-again' }, button);
  }
  return h(
    'section',
    { class: 'failure', role: 'alert', 'aria-labelledby': 'failure-title' },
    h('h2', { id: 'failure-title', tabindex: -1 }, title),
    h('p', { class: 'message' }, sentence),
    fields.length
      ? h(
          'ul',
          { class: 'field-errors' },
          ...fields.map((field) => h('li', null, h('code', null, field.field), `: ${field.messages.join('; ')}`)),
        )
      : null,
    again,
    http?.body !== undefined
      ? h(
          'details',
          null,
          h('summary', null, 'Response body'),
          h('pre', null, typeof http.body === 'string' ? http.body : JSON.stringify(http.body, null, 2)),
        )
      : null,
  );
}
