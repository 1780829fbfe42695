/**
 * The API explorer: signs in through the server's authorization page, then shows any resource of the API and
 * follows its links on click, keeping the resource in the address bar so that back, forward and reload work.
 */
import { type Entity, type TokenInfo, UnauthorizedError } from '@storefront-platform/sdk';
import { openAction } from './action-dialog.js';
import { pageAddress, resourceAt } from './address.js';
import { answerView, renderTimeView, statusText } from './answer-view.js';
import { Api, type Outcome } from './api.js';
import { readConfig } from './config.js';
import { byId, h } from './dom.js';
import { errorView } from './error-view.js';
import { type LinkTarget, targetOf } from './link-controls.js';
import { resourceView } from './resource-view.js';
import { forgetToken, type ScopeName, savedToken, signIn, takeRedirect } from './session.js';
import { signInView } from './sign-in-view.js';

const config = readConfig();
const apiOrigin = new URL(config.baseUrl).origin;
const main = byId<HTMLElement>('main');
const session = byId<HTMLElement>('session');
const dialog = byId<HTMLDialogElement>('action');
const go = byId<HTMLFormElement>('go');
const goUrl = byId<HTMLInputElement>('go-url');

let api: Api | undefined;
/** The resource shown, for writes that come back to it. */
let shown: string | undefined;
/** Counts calls, so that an answer that comes after a newer call's is dropped. */
let calls = 0;

type History = 'push' | 'replace' | 'none';

const currentResource = () => resourceAt(location, apiOrigin, config.baseUrl);

function startSignIn(scope: ScopeName): void {
  signIn(config, scope).catch((error: Error) => showSignIn(error.message));
}

function showSignIn(message?: string): void {
  api = undefined;
  session.replaceChildren();
  go.hidden = true;
  main.replaceChildren(signInView(startSignIn, message));
  document.title = 'Sign in · API explorer';
}

function startSession(token: TokenInfo): void {
  api = new Api(config.baseUrl, token.accessToken);
  const signOut = h('button', { type: 'button' }, 'Sign out');
  signOut.onclick = () => {
    forgetToken();
    showSignIn('You are signed out.');
    byId('sign-in-title').focus();
  };
  session.replaceChildren(
    h('span', null, 'Signed in · scope ', h('code', { id: 'session-scopes' }, token.scopes.join(' ') || '(none)')),
    signOut,
  );
  go.hidden = false;
}

function setHistory(mode: History, url: string): void {
  const address = pageAddress(url, apiOrigin);
  if (mode === 'push' && address !== location.pathname + location.search) history.pushState(null, '', address);
  else if (mode !== 'none') history.replaceState(null, '', address);
}

/**
 * Draws an outcome. The time from its arrival to the first frame that shows it is displayed and kept in
 * `data-render-ms` (the DOM's part in `data-build-ms`).
 */
function render(outcome: Outcome, total: number, focus: boolean): void {
  const started = performance.now();
  const answer = outcome.answer
    ? answerView({ answer: outcome.answer, total, revalidated: outcome.kind === 'entity' && outcome.revalidated })
    : null;
  let content: HTMLElement;
  let title: string;
  switch (outcome.kind) {
    case 'entity':
      content = resourceView(outcome.entity, apiOrigin);
      title = content.querySelector('h2')!.textContent!;
      break;
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
      content = errorView(outcome.error);
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
    ...[answer, content].filter((part) => part !== null),
    ...(refused ? [signInView(startSignIn, 'The API refused the token (it expired?): sign in again.')] : []),
  );
  main.dataset.buildMs = (performance.now() - started).toFixed(1);
  main.dataset.startedAt = started.toFixed(1);
  delete main.dataset.renderMs;
  // Shown once the browser has drawn the frame that holds it: a timer queued from the frame's callback runs after.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const rendered = performance.now() - started;
      main.dataset.renderMs = rendered.toFixed(1);
      answer?.append(renderTimeView(rendered));
    }),
  );
  main.removeAttribute('aria-busy');
  document.title = `${title} · API explorer`;
  if (focus) main.querySelector<HTMLElement>('h2[tabindex]')?.focus();
}

/** Runs a call unless a newer one started meanwhile, and draws what it got. */
async function run(call: (api: Api) => Promise<Outcome>, after: (outcome: Outcome) => void, focus = true) {
  if (!api) return;
  const mine = ++calls;
  main.setAttribute('aria-busy', 'true');
  const started = performance.now();
  const outcome = await call(api);
  if (mine !== calls) return;
  after(outcome);
  render(outcome, performance.now() - started, focus);
}

function open(url: string, mode: History, focus = true): Promise<void> {
  return run(
    (api) => api.open(url),
    () => {
      shown = url;
      goUrl.value = url;
      setHistory(mode, url);
    },
    focus,
  );
}

/** Where a successful write leaves the page: on the resource it returned. */
function landOn(entity: Entity): void {
  const self = entity.links.get('self')?.[0];
  const url = self && !self.templated ? self.resolve().url : entity.response?.url;
  if (!url) return;
  setHistory(url === shown ? 'replace' : 'push', url);
  shown = url;
  goUrl.value = url;
}

/** Follows a link with `args`; a message for the dialog when the call failed there. */
async function follow({ entity, link }: LinkTarget, args: Record<string, unknown> = {}): Promise<string | undefined> {
  let url: string;
  try {
    url = link.resolve(args).url;
  } catch (error) {
    return (error as Error).message;
  }
  // `follow` takes the first link of a relation; another one of the same relation is opened by its address.
  if (link.method === 'GET' && entity.link(link.rel) !== link) {
    await open(url, 'push');
    return undefined;
  }
  let failure: string | undefined;
  await run(
    (api) => api.follow(entity, link.rel, args),
    (outcome) => {
      if (link.method === 'GET') {
        shown = url;
        goUrl.value = url;
        setHistory('push', url);
      } else if (outcome.kind === 'entity') landOn(outcome.entity);
      else if (outcome.kind === 'error' && link.method !== 'DELETE') failure = (outcome.error as Error).message;
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
  else openAction(dialog, target, (args) => follow(target, args));
});

dialog.addEventListener('close', () => {
  // The control that opened the dialog is gone when the page was drawn anew: start from the new heading.
  if (!dialog.contains(document.activeElement) && document.activeElement !== document.body) return;
  main.querySelector<HTMLElement>('h2[tabindex]')?.focus();
});

go.addEventListener('submit', (event) => {
  event.preventDefault();
  void open(goUrl.value, 'push');
});

window.addEventListener('popstate', () => void open(currentResource(), 'none'));

function boot(): void {
  let token: TokenInfo | undefined;
  try {
    token = takeRedirect() ?? savedToken();
  } catch (error) {
    showSignIn(`Signing in failed: ${(error as Error).message}`);
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
