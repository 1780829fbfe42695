/** The webhooks-receiver example against a fresh server: it receives its write's event, verified. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../examples/webhooks-receiver/index.js';
import { type ExampleServer, startExampleServer } from './server.js';

let example: ExampleServer;
beforeAll(async () => {
  example = await startExampleServer();
});
afterAll(() => example?.server.close());

describe('webhooks-receiver', () => {
  it('registers an endpoint, receives its write’s event verified, and removes the endpoint', async () => {
    const lines: string[] = [];
    const result = await main(example.options(lines));
    expect(result.received.map((event) => event.type)).toEqual(['theme.updated']);
    expect(lines.join('\n')).toMatch(/received theme.updated evt_\S+ \(verified\)/);
    expect(example.server.store.all('webhook_endpoints')).toHaveLength(0);
  });
});
