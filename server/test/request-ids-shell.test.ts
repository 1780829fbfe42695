/**
 * `X-Request-Id` on the answers the core does not make: the API explorer's files, the sandbox's control API, the
 * shell's own errors. Each carries one (the client's when sane) and its request log line names it, as the API's do.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../src/create-server.js';

let server: StorefrontServer;
const lines: string[] = [];
beforeAll(async () => {
  server = await createServer({ port: 0, products: 1, control: true, log: (line) => lines.push(line) });
});
afterAll(() => server.close());

it('names the explorer’s and the control API’s answers, the client’s sane id kept, and logs it', async () => {
  const { url, token } = server.control!;
  const answers = [
    await fetch(`${server.origin}/explorer/`, { headers: { 'x-request-id': 'explorer-1' } }),
    await fetch(`${url}/clock`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'control-1' } }),
    await fetch(`${url}/clock`, { headers: { 'x-request-id': 'control-2' } }),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401]);
  expect(answers.map((answer) => answer.headers.get('x-request-id'))).toEqual(['explorer-1', 'control-1', 'control-2']);
  await Promise.all(answers.map((answer) => answer.body?.cancel()));
  const made = await fetch(`${server.origin}/explorer/`, { headers: { 'x-request-id': 'not sane' } });
  expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  await made.body?.cancel();
  await expect.poll(() => lines.filter((line) => / id=(explorer-1|control-1|control-2)$/.test(line)).length).toBe(3);
});

it('names the shell’s own error answers', async () => {
  // A request target no URL can be made of: the shell answers 400 before the core sees it.
  const id = await new Promise<string | undefined>((resolve, reject) => {
    const sent = request(server.origin, { path: '*' }, (answer) => {
      answer.resume();
      resolve(`${answer.statusCode} ${answer.headers['x-request-id']}`);
    });
    sent.on('error', reject);
    sent.end();
  });
  expect(id).toMatch(/^400 [0-9a-f-]{36}$/);
});
