/**
 * The `ping` that docs/sdk.md signs with `signTestWebhook` is one the server could send: an app tested against the
 * guide's event must meet the same fields in a real ping (a ping is of no shop: `shop_id` is null).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Doc, startThemeServer, type ThemeServer } from '../themes/fixture.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: ThemeServer;
let receiver: Receiver;
beforeAll(async () => {
  t = await startThemeServer();
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.server.close();
  await receiver.close();
});

/** The object literal `const event = { … };` of the guide's `signTestWebhook` example. */
async function guideEvent(): Promise<string> {
  const guide = await readFile(new URL('../../../docs/sdk.md', import.meta.url), 'utf8');
  const example = guide.slice(guide.indexOf('`signTestWebhook(event, secret)` gives'));
  const literal = /const event = \{\n([\s\S]*?)\n\};/.exec(example)?.[1];
  if (!literal) throw new Error('docs/sdk.md: no `const event = { … };` in the signTestWebhook example');
  return literal;
}

it('docs/sdk.md’s test ping has the fields of the ping the server sends, shop_id null', async () => {
  const endpoint = await t.json<Doc>('/webhook_endpoints', {
    method: 'POST',
    json: { url: receiver.url },
    status: 201,
  });
  await t.json(`${endpoint._links.self.href}/ping`, { method: 'POST', status: 201 });
  await t.server.webhooks.drain();
  const sent = JSON.parse(receiver.received[0]!.body) as Doc;
  const literal = await guideEvent();
  const fields = [...literal.matchAll(/^ {2}(\w+):/gm)].map((match) => match[1]);
  // Links, class and request id are the server's own; `signTestWebhook` fills in or leaves out the first two.
  const { _class, _links, request_id, ...rest } = sent;
  expect(fields.sort()).toEqual(Object.keys(rest).sort());
  expect(literal).toContain(`shop_id: ${JSON.stringify(sent.shop_id)},`);
  expect(literal).toMatch(/data: \{ endpoint_id: '\d+' \}/);
});
