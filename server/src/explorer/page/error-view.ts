/** A failed call: what went wrong in words, the field errors of a 422, and the body the server sent. */
import { HttpError, StorefrontError, ValidationError } from '@storefront-platform/sdk';
import { statusText } from './answer-view.js';
import { h } from './dom.js';

export function errorView(error: unknown): HTMLElement {
  const http = error instanceof HttpError ? error : undefined;
  const title = http ? statusText(http.status) : error instanceof StorefrontError ? error.code : 'Error';
  const message = (error as Error)?.message ?? String(error);
  return h(
    'section',
    { class: 'failure', role: 'alert', 'aria-labelledby': 'failure-title' },
    h('h2', { id: 'failure-title', tabindex: -1 }, title),
    h('p', { class: 'message' }, message),
    error instanceof ValidationError && error.errors.length
      ? h(
          'ul',
          { class: 'field-errors' },
          ...error.errors.map((field) => h('li', null, h('code', null, field.field), `: ${field.messages.join(', ')}`)),
        )
      : null,
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
