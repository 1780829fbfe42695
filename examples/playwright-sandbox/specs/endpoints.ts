/** The data the specs change: the demo app's webhook endpoints, which the seed has none of. */
import type { Sandbox } from '../fixtures.js';

/** Registers a webhook endpoint of the demo app. */
export async function addEndpoint(sandbox: Sandbox, token: string, url: string): Promise<void> {
  const response = await sandbox.fetch('/v1/webhook_endpoints.json', {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  if (response.status !== 201) throw new Error(`registering ${url} answered ${response.status}`);
}

/** The demo app's webhook endpoints, by URL. */
export async function endpointUrls(sandbox: Sandbox, token: string): Promise<string[]> {
  const response = await sandbox.fetch('/v1/webhook_endpoints.json', { token });
  if (response.status !== 200) throw new Error(`listing the endpoints answered ${response.status}`);
  const text = await response.text();
  return [...text.matchAll(/"url":"(http:\/\/hooks\.test\/[^"]*)"/g)].map((match) => match[1]!).sort();
}
