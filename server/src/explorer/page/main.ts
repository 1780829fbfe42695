/**
 * The API explorer: signs in through the server's authorization page, then shows any resource of the API and
 * follows its links on click, keeping the resource in the address bar so that back, forward and reload work.
 * Every answer goes into the session's history, with the way that reached it (for "Copy as SDK code").
 */
import { type Entity, type TokenInfo, UnauthorizedError } from '@storefront-platform/sdk';
import { openAction } from './action-dialog.js';
import { pageAddress, resourceAt } from './address.js';
import { answerView, showRenderTime, statusText } from './answer-view.js';
import { Api, type Outcome } from './api.js';
import { readConfig } from './config.js';
import { copyView } from './copy-view.js';
import { byId, h } from './dom.js';
import { errorView } from './error-view.js';
import { failureText } from './failure-text.js';
import { chainTo, isChain, reachedBy, type Step } from './follow-chain.js';
import { HISTORY_SIZE, historyList } from './history-view.js';
import { type LinkTarget, targetOf } from './link-controls.js';
import { resourceView } from './resource-view.js';
import { hiddenByScope, scopeNote } from './scope-notes.js';
import { forgetToken, type ScopeName, savedToken, signIn, takeRedirect } from './session.js';
import { type Entry, forgetHistory, loadHistory, saveHistory } from './session-history.js';
import { signInView } from './sign-in-view.js';

const config = readConfig();
const apiOrigin = new URL(config.baseUrl).origin;
const main = byId<HTMLElement>('main');
const session = byId<HTMLElement>('session');
const dialog = byId<HTMLDialogElement>('action');
const go = byId<HTMLFormElement>('go');
const goUrl = byId<HTMLInputElement>('go-url');
const historyBox = byId<HTMLDetailsElement>('history');

let api: Api | undefined;
let scopes: string[] = [];
/** The resource shown, for writes that come back to it. */
let shown: string | undefined;
/** Counts calls, so that an answer that comes after a newer call's is dropped. */
let calls = 0;

const entries: Entry[] = [];
let currentEntry = 0;

type History = 'push' | 'replace' | 'none';

const currentResource = () => resourceAt(location, apiOrigin, config.baseUrl);

function startSignIn(scope: ScopeName): void {
  signIn(config, scope).catch((error: Error) => showSignIn(error.message));
}

function showSignIn(message?: string): void {
  api = undefined;
  session.replaceChildren();
  go.hidden = true;
  historyBox.hidden = true;
  main.replaceChildren(signInView(startSignIn, message));
  document.title = 'Sign in · API explorer';
}

function startSession(token: TokenInfo): void {
  api = new Api(config.baseUrl, token.accessToken);
  scopes = [...token.scopes];
  // Kept across a reload and a sign-in again (with another scope, say): the tab's session, until signing out.
  const current = api;
  entries.splice(0, entries.length, ...loadHistory((document, url) => current.restore(document, url)));
  for (const { outcome, steps } of entries) if (outcome.kind === 'entity') reachedBy(outcome.entity, steps);
  currentEntry = entries.at(-1)?.id ?? 0;
  const signOut = h('button', { type: 'button' }, 'Sign out');
  signOut.onclick = () => {
    forgetToken();
    forgetHistory();
    entries.length = 0;
    showSignIn('You are signed out.');
    byId('sign-in-title').focus();
  };
  session.replaceChildren(
    h('span', null, 'Signed in · scope ', h('code', { id: 'session-scopes' }, token.scopes.join(' ') || '(none)')),
    signOut,
  );
  go.hidden = false;
  drawHistory();
}

function setHistory(mode: History, url: string, steps: readonly Step[]): void {
  const address = pageAddress(url, apiOrigin);
  const state = { steps };
  if (mode === 'push' && address !== location.pathname + location.search) history.pushState(state, '', address);
  else if (mode !== 'none') history.replaceState(state, '', address);
}

/** The way to the page's resource that the history state remembers, else from the root or the address. */
function stepsHere(url: string): readonly Step[] {
  const saved = (history.state as { steps?: unknown } | null)?.steps;
  if (isChain(saved)) return saved;
  return url === config.baseUrl ? [{ kind: 'root' }] : [{ kind: 'address', url }];
}

const historySummary = h('summary', null, 'History');
historyBox.append(historySummary);

function drawHistory(): void {
  historyBox.hidden = entries.length === 0;
  historySummary.textContent = `History (${entries.length})`;
  const items = entries.map(({ id, method, url, at, outcome }) => ({
    id,
    method: outcome.answer?.method ?? method,
    url: outcome.answer?.url ?? url,
    status: outcome.answer?.status,
    at,
  }));
  // The list is in the page only while it is open: a closed <details> keeps its content's boxes in Chromium.
  historyBox.querySelector('.history-list')?.remove();
  if (historyBox.open) historyBox.append(historyList(items, currentEntry, showEarlier));
}

historyBox.addEventListener('toggle', drawHistory);

let keeping = false;

/** Saves the history once the page is idle: serializing 50 documents must not delay drawing the answer. */
function keepHistory(): void {
  if (keeping) return;
  keeping = true;
  const save = () => {
    keeping = false;
    saveHistory(entries);
  };
  if ('requestIdleCallback' in window) requestIdleCallback(save, { timeout: 1000 });
  else setTimeout(save, 50);
}

function remember(outcome: Outcome, total: number, steps: readonly Step[], method: string, url: string): Entry {
  const entry = { id: entries.length ? entries.at(-1)!.id + 1 : 1, outcome, total, steps, method, url, at: new Date() };
  entries.push(entry);
  if (entries.length > HISTORY_SIZE) entries.shift();
  keepHistory();
  currentEntry = entry.id;
  drawHistory();
  return entry;
}

/** Shows an answer of the history again, as it was, and puts its resource in the address bar. */
function showEarlier(id: number): void {
  const entry = entries.find((e) => e.id === id);
  if (!entry) return;
  calls++;
  currentEntry = entry.id;
  const url = entry.outcome.answer?.url ?? entry.url;
  if (entry.outcome.kind === 'entity' && entry.method === 'GET') {
    shown = url;
    goUrl.value = url;
    setHistory('push', url, entry.steps);
  }
  render(entry, true);
  // Closing redraws the history (the toggle event), the entry now current.
  historyBox.open = false;
  drawHistory();
}

/**
 * Draws an entry. The time from its arrival to the first frame that shows it is displayed and kept in
 * `data-render-ms` (the DOM's part in `data-build-ms`).
 */
function render(entry: Entry, focus: boolean): void {
  const { outcome, total } = entry;
  const started = performance.now();
  const earlier = entry.id !== entries.at(-1)?.id ? { earlier: entry.at } : {};
  const copy =
    outcome.answer && api
      ? copyView({
          request: outcome.answer.request,
          steps: entry.steps,
          baseUrl: config.baseUrl,
          token: api.accessToken,
        })
      : null;
  const answer = outcome.answer
    ? answerView(
        { answer: outcome.answer, total, revalidated: outcome.kind === 'entity' && outcome.revalidated, ...earlier },
        copy,
      )
    : null;
  let content: HTMLElement;
  let title: string;
  let note: HTMLElement | null = null;
  switch (outcome.kind) {
    case 'entity': {
      content = resourceView(outcome.entity, apiOrigin);
      title = content.querySelector('h2')!.textContent!;
      const hidden = hiddenByScope(outcome.entity, scopes);
      if (hidden.length) note = scopeNote(hidden, scopes, () => startSignIn('admin'));
      break;
    }
    case 'empty':
      content = h(
        'section',
        { class: 'done', 'aria-labelledby': 'done-title' },
        h('h2', { id: 'done-title', tabindex: -1 }, statusText(outcome.answer?.status ?? 204)),
        h('p', null, 'Done: the server sent no content. A deleted resource is now a 404: reload to see it.'),
      );
      title = 'Done';
      break;
    case 'other':
      content = h('pre', null, JSON.stringify(outcome.value, null, 2));
      title = 'Data';
      break;
    case 'error':
      content = errorView(outcome.error, startSignIn);
      title = content.querySelector('h2')!.textContent!;
      break;
  }
  const refused = outcome.kind === 'error' && outcome.error instanceof UnauthorizedError;
  if (refused) {
    forgetToken();
    api = undefined;
    session.replaceChildren();
  }
  main.replaceChildren(
    ...[answer, note, content].filter((part) => part !== null),
    // The scope the session had: an admin whose token expired signs in as admin again, not as the form's default.
    ...(refused
      ? [
          signInView(
            startSignIn,
            'The API refused the token (it expired?): sign in again.',
            scopes.includes('admin') ? 'admin' : undefined,
          ),
        ]
      : []),
  );
  main.dataset.buildMs = (performance.now() - started).toFixed(1);
  main.dataset.startedAt = started.toFixed(1);
  delete main.dataset.renderMs;
  // Shown once the browser has drawn the frame that holds it: a timer queued from the frame's callback runs after.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const rendered = performance.now() - started;
      main.dataset.renderMs = rendered.toFixed(1);
      if (answer) showRenderTime(answer, rendered);
    }),
  );
  main.removeAttribute('aria-busy');
  document.title = `${title} · API explorer`;
  if (focus) {
    const heading = main.querySelector<HTMLElement>('h2[tabindex]');
    heading?.focus({ preventScroll: true });
    // The answer panel first, heading below it: the link clicked may have been far down a long page.
    (answer ?? heading)?.scrollIntoView({ block: 'start' });
  }
}

/**
 * Runs a call unless a newer one started meanwhile, records it in the history with the way it was reached
 * (`steps`), and draws what it got.
 */
async function run(
  call: (api: Api) => Promise<Outcome>,
  request: { method: string; url: string; steps: readonly Step[] },
  after: (outcome: Outcome) => void,
  focus = true,
) {
  if (!api) return;
  const mine = ++calls;
  main.setAttribute('aria-busy', 'true');
  const started = performance.now();
  const outcome = await call(api);
  if (mine !== calls) return;
  if (outcome.kind === 'entity') reachedBy(outcome.entity, request.steps);
  after(outcome);
  render(remember(outcome, performance.now() - started, request.steps, request.method, request.url), focus);
}

function open(url: string, mode: History, focus = true, steps = stepsHere(url)): Promise<void> {
  return run(
    (api) => api.open(url),
    { method: 'GET', url, steps },
    () => {
      shown = url;
      goUrl.value = url;
      setHistory(mode, url, steps);
    },
    focus,
  );
}

/** Where a successful write leaves the page: on the resource it returned. */
function landOn(entity: Entity, steps: readonly Step[]): void {
  const self = entity.links.get('self')?.[0];
  const url = self && !self.templated ? self.resolve().url : entity.response?.url;
  if (!url) return;
  setHistory(url === shown ? 'replace' : 'push', url, steps);
  shown = url;
  goUrl.value = url;
}

/** Follows a link with `args`; what to say in the dialog when the call failed there. */
async function follow({ entity, link }: LinkTarget, args: Record<string, unknown> = {}) {
  let url: string;
  try {
    url = link.resolve(args).url;
  } catch (error) {
    return failureText(error);
  }
  // `follow` takes the first link of a relation; another one of the same relation is opened by its address.
  if (link.method === 'GET' && entity.link(link.rel) !== link) {
    await open(url, 'push', true, [{ kind: 'address', url }]);
    return undefined;
  }
  const step: Step = {
    kind: 'follow',
    rel: link.rel,
    method: link.method,
    ...(Object.keys(args).length ? { args } : {}),
  };
  const steps = [...chainTo(entity), step];
  let failure: ReturnType<typeof failureText> | undefined;
  await run(
    (api) => api.follow(entity, link.rel, args),
    { method: link.method, url, steps },
    (outcome) => {
      if (link.method === 'GET') {
        shown = url;
        goUrl.value = url;
        setHistory('push', url, steps);
      } else if (outcome.kind === 'entity') landOn(outcome.entity, steps);
      else if (outcome.kind === 'error' && link.method !== 'DELETE') failure = failureText(outcome.error);
    },
  );
  return failure;
}

main.addEventListener('click', (event) => {
  const modified = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
  const found = !event.defaultPrevented && !modified ? targetOf(event.target as Element) : undefined;
  if (!found) return;
  event.preventDefault();
  const { target } = found;
  if (target.link.method === 'GET' && !target.link.templated) void follow(target);
  else void openAction(dialog, target, (args) => follow(target, args));
});

dialog.addEventListener('close', () => {
  // The control that opened the dialog is gone when the page was drawn anew: start from the new heading.
  if (!dialog.contains(document.activeElement) && document.activeElement !== document.body) return;
  main.querySelector<HTMLElement>('h2[tabindex]')?.focus();
});

go.addEventListener('submit', (event) => {
  event.preventDefault();
  const url = goUrl.value;
  void open(url, 'push', true, url === config.baseUrl ? [{ kind: 'root' }] : [{ kind: 'address', url }]);
});

window.addEventListener('popstate', () => void open(currentResource(), 'none'));

function boot(): void {
  let token: TokenInfo | undefined;
  try {
    token = takeRedirect() ?? savedToken();
  } catch (error) {
    // The SDK's refusal of a callback says "Sign-in failed: …" itself; other errors (a state that does not match) do not.
    const { message } = error as Error;
    showSignIn(message.startsWith('Sign-in failed') ? message : `Signing in failed: ${message}`);
    return;
  }
  if (!token) {
    showSignIn();
    return;
  }
  startSession(token);
  void open(currentResource(), 'none', false);
}

boot();
