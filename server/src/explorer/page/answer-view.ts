/**
 * The answer panel: request line, status, the time it took and the time to draw it on one line, the copy
 * controls, then the headers worth seeing.
 */
import type { Answer } from './api.js';
import { h } from './dom.js';

/** Headers shown when present, in this order: validators, scopes, where a new resource is, why a request failed. */
const SHOWN = [
  'etag',
  'last-modified',
  'x-oauth-scopes',
  'x-accepted-oauth-scopes',
  'location',
  'www-authenticate',
  'retry-after',
  'content-type',
];

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `200 OK`. */
export function statusText(status: number): string {
  return `${status} ${REASONS[status] ?? ''}`.trim();
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** What the panel shows about one call. */
export interface AnswerInfo {
  answer: Answer;
  /** The cache answered: the server said 304 and the stored copy is shown. */
  revalidated: boolean;
  /** From the call to its result, in ms (the response, its body, the SDK's work). */
  total: number;
  /** When the answer came from the session history: the time it was first shown. */
  earlier?: Date;
}

/** The answer panel of a call, with `copy` (its copy controls) under the status line. */
export function answerView({ answer, revalidated, total, earlier }: AnswerInfo, copy: HTMLElement | null): HTMLElement {
  const kind = answer.status >= 400 ? 'error' : answer.status === 304 || revalidated ? 'cached' : 'ok';
  const headers = SHOWN.filter((name) => answer.headers[name] !== undefined);
  return h(
    'section',
    { class: 'answer', 'aria-labelledby': 'answer-title' },
    h('h2', { id: 'answer-title', class: 'visually-hidden' }, 'Response'),
    h(
      'p',
      { class: 'request' },
      h('span', { class: 'method' }, answer.method),
      ' ',
      h('code', { class: 'url' }, answer.url),
    ),
    h(
      'p',
      { class: 'outcome' },
      h('strong', { class: `status ${kind}`, id: 'answer-status' }, statusText(answer.status)),
      kind === 'cached' ? h('span', { class: 'badge' }, '304: unchanged, shown from the HTTP cache') : null,
      h('span', { class: 'time', id: 'answer-time' }, `${ms(total)} (headers after ${ms(answer.duration)})`),
      // Filled in once the view is drawn (see showRenderTime).
      h('span', { class: 'render-time', id: 'render-time' }),
    ),
    earlier
      ? h(
          'p',
          { class: 'earlier' },
          `An earlier answer from this session (${earlier.toLocaleTimeString()}), shown again without a request.`,
        )
      : null,
    copy,
    headers.length
      ? h(
          'dl',
          { class: 'headers' },
          ...headers.flatMap((name) => [h('dt', null, name), h('dd', null, h('code', null, answer.headers[name]!))]),
        )
      : null,
  );
}

/** The render time, shown once the resource is on the page (it is measured after it is drawn). */
export function showRenderTime(answer: HTMLElement, rendered: number): void {
  const slot = answer.querySelector('#render-time');
  if (slot) slot.textContent = `rendered in ${ms(rendered)}`;
}
