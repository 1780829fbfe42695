/**
 * Sending webhooks from Node: node:http and node:https, which follow no redirect, with the addresses a name
 * resolves to checked as the connection is made (a `lookup` of our own around the system's), so that a name
 * pointed at a private address between a check and the connection (DNS rebinding) is refused all the same.
 */
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { WebhookAnswer, WebhookSender } from './deliverer.js';
import { allowedHost, refusal, specialAddress, type TargetPolicy, targetProblem } from './targets.js';

/** The most of a receiver's answer read (and thrown away): enough for any acknowledgement. */
const MAX_ANSWER_BYTES = 64 * 1024;

// node:https (with TLS) and node:dns are taken when a webhook goes out (`process.getBuiltinModule`), not imported:
// most servers stop without sending one, and loading them was a few milliseconds of every start.

/** A lookup that refuses names resolving to special-use addresses under `policy`. */
function guardedLookup(host: string): LookupFunction {
  return ((hostname: string, options: LookupOneOptions | LookupAllOptions, callback: (...args: unknown[]) => void) => {
    process
      .getBuiltinModule('node:dns')
      .lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error);
        const refused = addresses.map((entry) => specialAddress(entry.address)).find(Boolean);
        if (refused) return callback(new Error(refusal(host, `resolving to ${refused}`)));
        if ((options as LookupAllOptions).all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      });
  }) as LookupFunction;
}

/** A {@link WebhookSender} on node:http(s) under `policy`. */
export function nodeWebhookSender(policy: TargetPolicy): WebhookSender {
  return (webhook) =>
    new Promise<WebhookAnswer>((resolve, reject) => {
      const url = new URL(webhook.url);
      const problem = targetProblem(url, policy);
      if (problem) return reject(new Error(problem));
      const guard = policy.restricted && !allowedHost(url.hostname, policy);
      const request = (url.protocol === 'https:' ? process.getBuiltinModule('node:https').request : httpRequest)(url, {
        method: 'POST',
        headers: { ...webhook.headers, 'content-length': String(Buffer.byteLength(webhook.body)) },
        ...(guard ? { lookup: guardedLookup(url.hostname) } : {}),
        // A fresh connection each time: no agent's pool keeps sockets to receivers open.
        agent: false,
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`No answer within ${webhook.timeoutMs / 1000} s`));
      }, webhook.timeoutMs);
      request.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.once('response', (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const done = () => {
          clearTimeout(timer);
          const retryAfter = response.headers['retry-after'];
          resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
        };
        response.once('end', done);
        response.once('close', done);
      });
      request.end(webhook.body);
    });
}
