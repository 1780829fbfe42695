/**
 * The SDK's scenario on every runtime (Bun, Deno, workerd, Chromium: sdk/test/runtimes/run.sh), one file for all of
 * them: no `node:` import and no runtime global, only what the SDK itself needs (`fetch`, Web Crypto). Each step
 * checks what it got and throws, naming the step, when the SDK or the runtime under it went wrong.
 */
import {
  authorized,
  bearer,
  clientCredentials,
  createClient,
  type TokenInfo,
  UnauthorizedError,
} from '@storefront-platform/sdk';
import { verifyWebhook, WebhookVerificationError } from '@storefront-platform/sdk/webhooks';

/** Where the reference server is and which app to act as; what the runner hands every runtime. */
export interface ScenarioOptions {
  /** The server's origin, `{auth_url}`; the API root is `{origin}/v1`. */
  origin: string;
  clientId: string;
  clientSecret: string;
  /** A delivery the server made to an endpoint of the runner's just before (a theme renamed), and its secret. */
  webhook: { secret: string; body: string; headers: Record<string, string> };
}

/** One line per step that passed, for the runner's log. */
export type ScenarioReport = string[];

/** The steps of the scenario, each a line of its report. */
export const SCENARIO_STEPS = 5;

function check(condition: unknown, step: string, detail: string): asserts condition {
  if (!condition) throw new Error(`${step}: ${detail}`);
}

export async function scenario({ origin, clientId, clientSecret, webhook }: ScenarioOptions): Promise<ScenarioReport> {
  const report: ScenarioReport = [];

  // The server's real delivery, verified on Web Crypto; one byte changed is refused.
  const event = await verifyWebhook(webhook.body, webhook.headers, webhook.secret);
  check(event.type === 'theme.updated', 'webhook', `verified a ${event.type} event, not theme.updated`);
  const forged = await verifyWebhook(
    webhook.body.replace('"theme.updated"', '"theme.updatex"'),
    webhook.headers,
    webhook.secret,
  ).then(
    () => undefined,
    (error: unknown) => error,
  );
  check(
    forged instanceof WebhookVerificationError && forged.code === 'WEBHOOK_SIGNATURE',
    'webhook',
    `a changed body was not refused as a bad signature (${String(forged)})`,
  );
  report.push(`webhook: the server's ${event.type} delivery verified, a changed byte refused`);
  const baseUrl = `${origin}/v1`;
  const tokens: TokenInfo[] = [];
  const client = createClient({
    baseUrl,
    auth: clientCredentials({
      authUrl: origin,
      clientId,
      clientSecret,
      scope: 'admin',
      onToken: (token) => void tokens.push(token),
    }),
  });

  // Client credentials, then root → shop → theme → template.
  const root = await client.root();
  check(tokens.length === 1, 'client credentials', `${tokens.length} tokens requested, not 1`);
  const summary = root.embedded('shops')[0];
  check(summary, 'root', 'no shop embedded in the root');
  const shop = await summary.follow('self');
  const theme = await shop.follow('svc:theme');
  const layout = theme.embedded('templates').find((template) => template.properties.file_name === 'layout.html');
  check(layout, 'theme', 'no layout.html among its templates');
  const template = await layout.follow('self');
  report.push(
    `client credentials → root → shop ${shop.properties.subdomain} → theme → ${template.properties.file_name}`,
  );

  // An update, read back in full (the write dropped the cached copy), then revalidated: 304, no body.
  const marker = `<!-- runtime check ${crypto.randomUUID()} -->`;
  const updated = await template.follow('svc:update_template', {
    body: `${template.properties.body}\n${marker}`,
    last_updated_on: template.properties.updated_on,
  });
  check(updated.properties.body.endsWith(marker), 'update', 'the answer does not hold the new body');
  const first = await updated.follow('self');
  check(first.response?.status === 200 && !first.response.revalidated, 'read after the update', 'not a full 200');
  check(first.properties.body.endsWith(marker), 'read after the update', 'the new body was not read back');
  const second = await first.follow('self');
  check(second.response?.revalidated, 'second read', `answered ${second.response?.status}, not revalidated by a 304`);
  check(second.properties.body === first.properties.body, 'second read', 'the cached body differs');
  report.push('update, then 200 and a 304 answered from the cache');

  // A paged walk to the end: every item once, the last page without `next`.
  const list = await root.follow('svc:all_products', { shop_ids: [shop.properties.id], per_page: 10 });
  const seen = new Set<string>();
  let pages = 0;
  let last = list;
  for await (const page of list.pages()) {
    pages++;
    last = page;
    for (const product of page.pageItems) seen.add(product.properties.id);
  }
  const total = list.properties.total_items;
  check(pages > 1, 'paged walk', `${pages} page for ${total} products: nothing to walk`);
  check(seen.size === total, 'paged walk', `${seen.size} distinct products over ${pages} pages, not ${total}`);
  check(!last.can('next'), 'paged walk', 'the last page links a next one');
  report.push(`paged walk: ${total} products over ${pages} pages`);

  // A JWT-bearer refresh: the token, known to be expired, is exchanged before the request; the old one is revoked.
  const [held] = tokens;
  check(held, 'JWT bearer', 'no token to exchange');
  const refreshed: TokenInfo[] = [];
  const user = createClient({
    baseUrl,
    auth: authorized({
      authUrl: origin,
      clientId,
      clientSecret,
      accessToken: held.accessToken,
      expiresAt: Date.now() - 1000,
      onToken: (token) => void refreshed.push(token),
    }),
  });
  const again = await user.root();
  check(refreshed.length === 1, 'JWT bearer', `${refreshed.length} exchanges, not 1`);
  check(refreshed[0]?.accessToken !== held.accessToken, 'JWT bearer', 'the exchange gave the same token');
  check(again.properties.user_name === root.properties.user_name, 'JWT bearer', 'the new token acts for another user');
  const revoked = await createClient({ baseUrl, auth: bearer(held.accessToken), cache: false })
    .root()
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  check(revoked instanceof UnauthorizedError, 'JWT bearer', `the old token still works (${String(revoked)})`);
  report.push('JWT bearer refresh: a new token for the same user, the old one refused');
  return report;
}
