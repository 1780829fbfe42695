/**
 * Taking a request away: "Copy as curl" (the token left out unless the box is ticked) and "Copy as SDK code"
 * (the follow chain that reached it). The text copied is also shown below the buttons, so that it can be read
 * first, or copied by hand where the clipboard is refused.
 */
import type { SentRequest } from './api.js';
import { curlCommand, TOKEN_VARIABLE } from './curl-command.js';
import { h } from './dom.js';
import { type Step, sdkCode } from './follow-chain.js';

/** What an answer's copy controls copy from. */
export interface CopySource {
  /** The request as sent, for curl. */
  request: SentRequest;
  /** The way that reached the answer, for the SDK code. */
  steps: readonly Step[];
  /** The API root the SDK code's client starts from. */
  baseUrl: string;
  /** The session's token, written into a curl command only when the user asks for it. */
  token: string;
}

async function toClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The copy controls of one answer. */
export function copyView(source: CopySource): HTMLElement {
  const withToken = h('input', { type: 'checkbox', id: 'copy-token' });
  const curl = h('button', { type: 'button', id: 'copy-curl' }, 'Copy as curl');
  const sdk = h('button', { type: 'button', id: 'copy-sdk' }, 'Copy as SDK code (TypeScript)');
  const said = h('span', { class: 'muted', role: 'status', id: 'copy-status' });
  const text = h('pre', { id: 'copy-text', tabindex: 0, 'aria-labelledby': 'copy-text-title' });
  const shown = h(
    'div',
    { class: 'copy-text' },
    h('p', { id: 'copy-text-title', class: 'muted' }, 'Copied text'),
    text,
  );
  shown.hidden = true;
  const copy = async (value: string, what: string) => {
    text.textContent = value;
    shown.hidden = false;
    said.textContent = (await toClipboard(value))
      ? `Copied ${what}.`
      : `The clipboard refused: copy ${what} from "Copied text".`;
  };
  curl.onclick = () => {
    const token = withToken.checked ? source.token : undefined;
    const note = token ? 'curl, with the token' : `curl (the token read from $${TOKEN_VARIABLE})`;
    void copy(curlCommand(source.request, token), note);
  };
  sdk.onclick = () => void copy(sdkCode(source.steps, source.baseUrl), 'SDK code');
  return h(
    'div',
    { class: 'copy' },
    h(
      'div',
      { class: 'copy-controls' },
      curl,
      h('label', { class: 'inline' }, withToken, ' with the token'),
      sdk,
      said,
    ),
    shown,
  );
}
