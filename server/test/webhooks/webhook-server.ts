import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ServerOptions } from '../../src/create-server.js';
import { startThemeServer, type ThemeServer } from '../themes/fixture.js';
import { type Receiver, startReceiver } from './receiver.js';

/** A theme server whose clock the test moves, and a webhook receiver, as {@link useWebhookServer} keeps them. */
export interface WebhookServer {
  t: ThemeServer;
  receiver: Receiver;
  /** The server's time (epoch ms): moving it on makes retries fall due without waiting. */
  now: number;
}

/**
 * A theme server on port 0 on a clock the test moves (`w.now += ms`), and a receiver on a free port: started before
 * the file's tests and closed after them; before each test the receiver forgets what it got and answers 204 again.
 */
export function useWebhookServer(options: Omit<ServerOptions, 'clock'> = {}): WebhookServer {
  const w = { now: Date.now() } as WebhookServer;
  beforeAll(async () => {
    w.t = await startThemeServer({ clock: { now: () => w.now }, ...options });
    w.receiver = await startReceiver();
  });
  afterAll(async () => {
    await w.t?.server.close();
    await w.receiver?.close();
  });
  beforeEach(() => {
    w.receiver.received.length = 0;
    w.receiver.answer = () => ({ status: 204 });
  });
  return w;
}
