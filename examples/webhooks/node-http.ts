/** A receiver on Node's own `http` module, verifying by hand: the raw body is the request's chunks. */
import { createServer, type Server } from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '@storefront-platform/sdk/webhooks';

export function createReceiver(secret: string, log: (line: string) => void): Server {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const event = await verifyWebhook(Buffer.concat(chunks), req.headers, secret);
      if (event.type === 'template.updated') log(`${event.data.file_name} changed in theme ${event.data.theme_id}`);
      res.writeHead(204).end();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      res.writeHead(error.code === 'WEBHOOK_SIGNATURE' ? 401 : 400).end(error.message);
    }
  });
}
