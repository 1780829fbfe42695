/** A webhook receiver on a free port for tests: records every request and answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Wall-clock ms when it arrived. */
  at: number;
}

/** A receiver's answer to one request. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /**
   * What the next requests are answered: a status and headers, as a function of the request; a promise of them
   * holds the answer until it settles.
   */
  answer: (received: Received) => Answer | Promise<Answer>;
  /** Resolves once `count` requests arrived. */
  until(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/webhooks'): Promise<Receiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => ({ status: 204 }),
    until: (count) =>
      new Promise((resolve) => {
        if (receiver.received.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      receiver.received.push(received);
      void Promise.resolve(receiver.answer(received)).then(({ status, headers }) =>
        res.writeHead(status, headers).end(),
      );
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  // On every interface, so that other loopback addresses (127.0.0.2) and names reach it too.
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  server.unref();
  return receiver;
}
