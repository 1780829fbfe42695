/**
 * The session's history: every answer of this tab's session, newest first, to show again as it was (from
 * memory: no request). Kept to the last {@link HISTORY_SIZE}.
 */
import { statusText } from './answer-view.js';
import { h } from './dom.js';

/** How many answers the history keeps. */
export const HISTORY_SIZE = 50;

/** What a history entry shows. */
export interface HistoryItem {
  id: number;
  method: string;
  url: string;
  status: number | undefined;
  at: Date;
}

/** The list of `items`, newest first; `onPick` shows one again. */
export function historyList(items: readonly HistoryItem[], current: number, onPick: (id: number) => void): HTMLElement {
  const rows = [...items].reverse().map((item) => {
    const path = new URL(item.url).pathname + new URL(item.url).search;
    const status = item.status === undefined ? 'no answer' : statusText(item.status);
    const button = h(
      'button',
      {
        type: 'button',
        class: 'history-item',
        'aria-current': item.id === current ? 'true' : undefined,
      },
      h('span', { class: 'method' }, item.method),
      ' ',
      h('code', null, path),
      ' ',
      h('span', { class: 'muted' }, `${status} · ${item.at.toLocaleTimeString()}`),
    );
    button.onclick = () => onPick(item.id);
    return h('li', null, button);
  });
  return h('ol', { class: 'history-list' }, ...rows);
}
