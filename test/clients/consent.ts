/** The reference server's consent form, approved as a browser would post it, for clients that only build URLs. */

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Opens `authorizeUrl` (its page must show the form), approves it as `login`, and returns where the server
 * redirects the browser: the client's callback URL.
 */
export async function approve(authorizeUrl: string | URL, login: string, password: string): Promise<string> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`The authorize page answered ${page.status}: ${html}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[decodeEntities(match[1]!)] = decodeEntities(match[2]!);
  }
  const approved = await fetch(new URL('/oauth/authorize', authorizeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, login, password, decision: 'approve' }),
    redirect: 'manual',
  });
  const location = approved.headers.get('location');
  if (approved.status !== 303 || !location) throw new Error(`The form answered ${approved.status} without a redirect`);
  return location;
}
