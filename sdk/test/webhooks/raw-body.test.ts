/**
 * The top complaint of webhook receivers, a body parsed or re-serialised before it reaches the verifier, fails
 * with one message that says to pass the raw body and shows how in each framework.
 */
import { signTestWebhook, verifyWebhook, WebhookVerificationError } from '@storefront-platform/sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { newSecret, templateUpdated } from './events.js';

const secret = newSecret();

/** The error `verifyWebhook` rejects with for `body`, with the headers of a genuine delivery. */
async function refusal(body: unknown): Promise<WebhookVerificationError> {
  const signed = await signTestWebhook(templateUpdated(), secret);
  const error = await verifyWebhook(body as string, signed.headers, secret).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

/** Asserts that `error` is the raw-body one, with its advice for every framework. */
function expectRawBodyAdvice(error: WebhookVerificationError): void {
  expect(error.code).toBe('WEBHOOK_BODY');
  expect(error.message).toContain('pass the raw body');
  expect(error.message).toContain('express.raw({ type: "application/json" })');
  expect(error.message).toContain('await request.text()');
  expect(error.message).toContain('await c.req.text()');
  expect(error.message).toContain('Buffer.concat(chunks)');
}

describe('a body that is not the raw one', () => {
  it('refuses parsed JSON, null and a number with the raw-body message', async () => {
    for (const body of [templateUpdated(), null, 42, [1]]) expectRawBodyAdvice(await refusal(body));
  });

  it('refuses a body re-serialised by JSON.stringify, even one byte for byte equal but for the newline', async () => {
    const parsed = JSON.parse((await signTestWebhook(templateUpdated(), secret)).body) as unknown;
    const error = await refusal(JSON.stringify(parsed));
    expectRawBodyAdvice(error);
    expect(error.message).toMatch(/re-serialised/);
  });

  it("leaves a Request already read to the runtime's TypeError", async () => {
    const signed = await signTestWebhook(templateUpdated(), secret);
    const request = new Request('http://app.test/', { method: 'POST', body: signed.body });
    await request.text();
    await expect(verifyWebhook(request, signed.headers, secret)).rejects.toThrow(TypeError);
  });

  it('but a body re-serialised in another shape (pretty) only fails to match: nothing tells it apart from a forgery', async () => {
    const parsed = JSON.parse((await signTestWebhook(templateUpdated(), secret)).body) as unknown;
    expect((await refusal(JSON.stringify(parsed, null, 2))).code).toBe('WEBHOOK_SIGNATURE');
  });

  it('a body that is not the newline canary case but a forgery stays a signature error', async () => {
    const forged = `${JSON.stringify({ ...templateUpdated(), shop_id: '2' })}\n`;
    expect((await refusal(forged)).code).toBe('WEBHOOK_SIGNATURE');
  });
});
