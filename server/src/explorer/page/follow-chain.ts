/**
 * How the page reached what it shows, step by step, and that path as SDK code: `client.root()`, then
 * `follow(rel, args)` per hop, an embedded resource picked by its index. A resource opened by its address (a
 * reload without the page's history state, a typed URL) starts from that address instead.
 */
import type { Entity } from '@storefront-platform/sdk';

/** One hop of the way to a resource. */
export type Step =
  | { kind: 'root' }
  | { kind: 'address'; url: string }
  | { kind: 'embedded'; name: string; index: number; label: string }
  | { kind: 'follow'; rel: string; method: string; args?: Record<string, unknown> };

const chains = new WeakMap<Entity, readonly Step[]>();
const origins = new WeakMap<Entity, { parent: Entity; name: string; index: number; label: string }>();

/** Records that `entity` was reached by `steps`. */
export function reachedBy(entity: Entity, steps: readonly Step[]): void {
  chains.set(entity, steps);
}

/** Records that `item` is `parent`'s embedded resource `name` number `index` (from 0), called `label`. */
export function embeddedIn(item: Entity, parent: Entity, name: string, index: number, label: string): void {
  origins.set(item, { parent, name, index, label });
}

/** The way to `entity`: as recorded, through its parent when embedded, else from its address. */
export function chainTo(entity: Entity): readonly Step[] {
  const recorded = chains.get(entity);
  if (recorded) return recorded;
  const origin = origins.get(entity);
  if (origin) {
    const { parent, name, index, label } = origin;
    return [...chainTo(parent), { kind: 'embedded', name, index, label }];
  }
  const url = entity.response?.url;
  return url ? [{ kind: 'address', url }] : [{ kind: 'root' }];
}

/** Whether `value` is a list of steps (from the page's history state, which anyone could have set). */
export function isChain(value: unknown): value is Step[] {
  return (
    Array.isArray(value) &&
    value.every((step) => step && typeof step === 'object' && typeof (step as Step).kind === 'string')
  );
}

/** A JavaScript identifier for what `step` leads to: `svc:theme` → `theme`, `svc:all_products` → `products`. */
function nameOf(step: Step, previous: string): string {
  if (step.kind === 'root') return 'root';
  if (step.kind === 'address') return 'resource';
  if (step.kind === 'embedded') return step.name.replace(/ies$/, 'y').replace(/s$/, '') || 'item';
  const bare = step.rel.replace(/^[^:]+:(?!\/\/)/, '');
  if (bare === 'self') return previous;
  const words = bare
    .replace(/^(all|create|update|delete)_/, '')
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('');
  return /^[a-zA-Z_]/.test(camel) ? camel : 'resource';
}

const literal = (value: unknown) => JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');

/** `steps` as a script on the SDK: the client, then one `await` per request. */
export function sdkCode(steps: readonly Step[], baseUrl: string): string {
  const lines = [
    "import { bearer, createClient } from '@storefront-platform/sdk';",
    '',
    // Narrowed, so that the code compiles as pasted under strict TypeScript (the variable may be unset).
    'const token = process.env.STOREFRONT_TOKEN;',
    "if (!token) throw new Error('Set STOREFRONT_TOKEN to an access token of the API.');",
    `const client = createClient({ baseUrl: ${JSON.stringify(baseUrl)}, auth: bearer(token) });`,
  ];
  const used = new Set<string>();
  const fresh = (name: string) => {
    let unique = name;
    for (let n = 2; used.has(unique) || unique === 'client'; n++) unique = `${name}${n}`;
    used.add(unique);
    return unique;
  };
  let current = '';
  let picked = '';
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    if (step.kind === 'root') {
      current = fresh('root');
      lines.push(`const ${current} = await client.root();`);
    } else if (step.kind === 'address') {
      current = fresh('resource');
      const url = JSON.stringify(step.url);
      lines.push(`// Opened by its address: the links that led here are not known.`);
      lines.push(
        `const ${current} = await client.restore({ _links: { self: { href: ${url} } } }, ${url}).follow('self');`,
      );
    } else if (step.kind === 'embedded') {
      // Picked here, followed by the next step; `!`: the index was there when the chain was recorded.
      picked = `${current}.embedded(${JSON.stringify(step.name)})[${step.index}]! /* ${step.label.replaceAll('*/', '* /')} */`;
      if (last) lines.push(`const ${fresh(nameOf(step, current))} = ${picked};`);
    } else {
      const from = picked || current;
      picked = '';
      const args = step.args && Object.keys(step.args).length ? `, ${literal(step.args)}` : '';
      const call = `await ${from}.follow(${JSON.stringify(step.rel)}${args});`;
      if (step.method === 'DELETE') lines.push(call);
      else {
        current = fresh(nameOf(step, from.includes('.embedded(') ? nameOf(steps[i - 1]!, current) : current));
        lines.push(`const ${current} = ${call}`);
      }
    }
  });
  return `${lines.join('\n')}\n`;
}
