/** The HTML of the authorization endpoint: the login + consent form and the error page. Everything shown is escaped. */
import type { Scope } from '@storefront-platform/sdk/internal';
import { escapeHtml as e } from '../http/html.js';
import type { AuthorizeRequest } from './authorize-request.js';

const SCOPE_TEXT: Record<Scope, string> = {
  admin: 'Read and change the shops you administer: themes, templates, assets, products and orders',
  public: 'Read public shops and their products',
};

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f5f7;color:#1d2330;
    font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
  main{width:min(26rem,calc(100vw - 2rem));background:#fff;border-radius:12px;padding:2rem;
    box-shadow:0 1px 3px rgba(0,0,0,.08),0 8px 24px rgba(0,0,0,.06)}
  h1{font-size:1.25rem;margin:0 0 .5rem}
  p{margin:.5rem 0}
  ul{margin:.5rem 0 1.25rem;padding-left:1.25rem}
  label{display:block;font-weight:600;font-size:.875rem;margin:.75rem 0 .25rem}
  input[type=text],input[type=password]{width:100%;padding:.6rem .75rem;border:1px solid #c9ced6;border-radius:8px;font:inherit}
  input:focus{outline:2px solid #3763d8;outline-offset:1px}
  /* Approve comes first in the markup so that Enter approves; it is shown on the right. */
  .actions{display:flex;flex-direction:row-reverse;gap:.75rem;margin-top:1.5rem}
  button{flex:1;padding:.65rem;border-radius:8px;border:1px solid #c9ced6;background:#fff;font:inherit;cursor:pointer}
  button[value=approve]{background:#3763d8;border-color:#3763d8;color:#fff;font-weight:600}
  .message{background:#fdecec;color:#8a1c1c;border-radius:8px;padding:.6rem .75rem}
  .muted{color:#5b6475;font-size:.875rem}
`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(title)} · Storefront</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

function hidden(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<input type="hidden" name="${e(name)}" value="${e(value)}">`;
}

/**
 * The request's id (its answer's `X-Request-Id`) under an error, as every JSON error body carries `request_id`: what
 * a user can quote to support, and what joins the page to the server's log line.
 */
function requestIdLine(requestId: string): string {
  return `<p class="muted">Request id: <code>${e(requestId)}</code></p>`;
}

/** What the login + consent form shows beside the request. */
export interface ConsentOptions {
  /** The login typed in, shown again. */
  login?: string;
  /** Why the form is shown again (a refused or throttled login). */
  message?: string;
  /** The id of the request whose refusal `message` tells, shown under it. */
  requestId?: string;
}

/** The login + consent form; it posts the validated request back to the authorization endpoint. */
export function consentPage(request: AuthorizeRequest, options: ConsentOptions = {}): string {
  const app = e(request.app.name);
  const scopes = request.scopes.map((scope) => `<li><strong>${e(scope)}</strong>: ${e(SCOPE_TEXT[scope])}</li>`);
  return page(
    `Authorize ${request.app.name}`,
    `<h1>Authorize ${app}</h1>
<p><strong>${app}</strong> asks to access your Storefront account with these permissions:</p>
<ul>${scopes.join('')}</ul>
${options.message === undefined ? '' : `<p class="message" role="alert">${e(options.message)}</p>`}
${options.message === undefined || options.requestId === undefined ? '' : requestIdLine(options.requestId)}
<form method="post" action="authorize">
${hidden('response_type', request.responseType)}
${hidden('client_id', request.app.client_id)}
${hidden('redirect_uri', request.redirectUri)}
${hidden('scope', request.scopes.join(' '))}
${hidden('state', request.state)}
${hidden('code_challenge', request.codeChallenge)}
${hidden('code_challenge_method', request.codeChallenge === undefined ? undefined : 'S256')}
<label for="login">Login</label>
<input type="text" id="login" name="login" autocomplete="username" required value="${e(options.login ?? '')}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password">
<div class="actions">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
<p class="muted">You will then be sent back to ${e(request.redirectUri)}</p>`,
  );
}

/**
 * Shown when the request cannot be answered by a redirect (unknown client, unregistered redirect URI), naming the
 * request by `requestId`.
 */
export function errorPage(message: string, requestId: string): string {
  return page(
    'Authorization failed',
    `<h1>This authorization request cannot be completed</h1>
<p class="message" role="alert">${e(message)}</p>
<p class="muted">Go back to the application and try again, or contact its developer.</p>
${requestIdLine(requestId)}`,
  );
}
