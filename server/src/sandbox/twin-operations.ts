/**
 * The control API's twins of the MSW mock's token, event and webhook helpers (`issueToken`, `expireToken`,
 * `trigger`, `webhooks.deliveries`, `webhooks.drain`), answered over HTTP by `http-door.ts`.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import type { TriggerOptions, TriggerType } from '../api/events/trigger.js';
import type { CoreRequest, CoreResponse } from '../core/types.js';
import { json } from './answers.js';
import type { Sandbox } from './sandbox.js';
import { SandboxError } from './sandbox-error.js';

type Operation = (request: CoreRequest) => Promise<CoreResponse>;
type BodyOf = (request: CoreRequest) => Promise<Record<string, unknown>>;

const noContent: CoreResponse = { status: 204, headers: { 'cache-control': 'no-store' } };

function only(body: Record<string, unknown>, what: string, fields: string[]): void {
  for (const key of Object.keys(body)) {
    if (!fields.includes(key))
      throw new SandboxError(`${what} has no field "${key}" (it takes ${fields.join(', ')})`, 400);
  }
}

/** `issueToken` (`POST /tokens`: `scope`, `user`) and `expireToken` (`POST /tokens/expire`: `token`). */
export function tokenOperations(sandbox: Sandbox, bodyOf: BodyOf): Record<'issueToken' | 'expireToken', Operation> {
  return {
    async issueToken(request) {
      const body = await bodyOf(request);
      only(body, 'A token request', ['scope', 'user']);
      const scope = body.scope as Scope | Scope[];
      const issued = await sandbox.issueToken(
        body.user === undefined ? { scope } : { scope, user: body.user as string },
      );
      return json(201, {
        _class: ['token'],
        access_token: issued.accessToken,
        token_type: issued.tokenType,
        expires_at: new Date(issued.expiresAt).toISOString(),
        scopes: issued.scopes,
      });
    },
    async expireToken(request) {
      const body = await bodyOf(request);
      only(body, 'An expiry', ['token']);
      if (typeof body.token !== 'string') {
        throw new SandboxError(`"token" is the access token to expire, got ${JSON.stringify(body.token)}`, 400);
      }
      await sandbox.expireToken(body.token);
      return noContent;
    },
  };
}

function triggerOf(body: Record<string, unknown>): [TriggerType, TriggerOptions] {
  only(body, 'A trigger', ['type', 'shop', 'id', 'set']);
  const { type, shop, id, set } = body;
  if (typeof type !== 'string') throw new SandboxError(`"type" is an event type, got ${JSON.stringify(type)}`, 400);
  if (typeof shop !== 'string') {
    throw new SandboxError(`"shop" is a shop's id, subdomain or name, got ${JSON.stringify(shop)}`, 400);
  }
  if (id !== undefined && typeof id !== 'string')
    throw new SandboxError(`"id" is a string, got ${JSON.stringify(id)}`, 400);
  const values = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number';
  if (
    set !== undefined &&
    (typeof set !== 'object' || set === null || Array.isArray(set) || !Object.values(set).every(values))
  ) {
    throw new SandboxError(`"set" is an object of fields to strings, numbers or null, got ${JSON.stringify(set)}`, 400);
  }
  const options: TriggerOptions = {
    shop,
    ...(id === undefined ? {} : { id }),
    ...(set === undefined ? {} : { set: set as TriggerOptions['set'] }),
  };
  return [type as TriggerType, options];
}

/** `trigger` (`POST /events`), `webhooks.deliveries` (`GET /webhooks/deliveries`), `webhooks.drain`. */
export function eventOperations(
  sandbox: Sandbox,
  bodyOf: BodyOf,
  href: (path: string) => string,
): Record<'trigger' | 'webhooks.deliveries' | 'webhooks.drain', Operation> {
  return {
    async trigger(request) {
      const [type, options] = triggerOf(await bodyOf(request));
      const event = (await sandbox.trigger(type, options)) as { _links?: { self?: { href: string } } };
      const location = event._links?.self?.href;
      return json(201, event, location === undefined ? {} : { location });
    },
    'webhooks.deliveries': async () =>
      json(200, {
        _class: ['deliveries'],
        deliveries: await sandbox.webhooks.deliveries(),
        _links: { self: { href: href('/webhooks/deliveries') } },
      }),
    'webhooks.drain': async () => {
      await sandbox.webhooks.drain();
      return noContent;
    },
  };
}
