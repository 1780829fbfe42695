/**
 * A webhook receiver for the fleet tests: records every arrival's `webhook-id` and time, and which ids were in
 * flight at once (an id arriving while the same id is still being answered: two processes attempting it together).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  id: string;
  /** `performance.now()` when it arrived. */
  at: number;
}

export interface FleetReceiver {
  url: string;
  arrivals: Arrival[];
  /** Ids that arrived while the same id was in flight. */
  overlaps: string[];
  /** Ids being answered now. */
  inFlight: Set<string>;
  /**
   * How an arrival is answered: called with it, may wait (the delivery stays in flight meanwhile); resolves with
   * the status. Default 204 at once.
   */
  answer: (arrival: Arrival, req: IncomingMessage) => Promise<number> | number;
  /** Distinct ids received. */
  distinct(): Set<string>;
  close(): Promise<void>;
}

export async function startFleetReceiver(): Promise<FleetReceiver> {
  const receiver: FleetReceiver = {
    url: '',
    arrivals: [],
    overlaps: [],
    inFlight: new Set(),
    answer: () => 204,
    distinct: () => new Set(receiver.arrivals.map((arrival) => arrival.id)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const id = String(req.headers['webhook-id']);
    const arrival = { id, at: performance.now() };
    receiver.arrivals.push(arrival);
    if (receiver.inFlight.has(id)) receiver.overlaps.push(id);
    receiver.inFlight.add(id);
    // Over when answered, or when the sender went away (a killed process) before the answer.
    res.on('close', () => receiver.inFlight.delete(id));
    for await (const _ of req) {
      // The body is not looked at: the signature tests are elsewhere.
    }
    const status = await receiver.answer(arrival, req);
    if (!res.destroyed) res.writeHead(status).end();
  };
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}
