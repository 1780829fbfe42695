/**
 * How the page reached what it shows, step by step, and that path as SDK code: `client.root()`, then
 * `follow(rel, args)` per hop, an embedded resource found by its `self` (or its `id` when it has none), never by
 * its position: the code may run after the list changed, and a write must not land on whatever moved into that
 * place. A resource opened by its address (a reload without the page's history state, a typed URL) starts from
 * that address instead.
 */
import type { Entity } from '@storefront-platform/sdk';

/** One hop of the way to a resource. */
export type Step =
  | { kind: 'root' }
  | { kind: 'address'; url: string }
  | {
      kind: 'embedded';
      name: string;
      /** Its place when shown: how it is found only when it has neither `self` nor `id`. */
      index: number;
      label: string;
      /** Its `self` link's `href` as written. */
      self?: string;
      /** Its `id` member, when it has no `self` (a theme's asset). */
      id?: string | number;
    }
  | { kind: 'follow'; rel: string; method: string; args?: Record<string, unknown> };

const chains = new WeakMap<Entity, readonly Step[]>();
type EmbeddedStep = Extract<Step, { kind: 'embedded' }>;
const origins = new WeakMap<Entity, { parent: Entity; step: EmbeddedStep }>();

/** Records that `entity` was reached by `steps`. */
export function reachedBy(entity: Entity, steps: readonly Step[]): void {
  chains.set(entity, steps);
}

/** Records that `item` is `parent`'s embedded resource `name` number `index` (from 0), called `label`. */
export function embeddedIn(item: Entity, parent: Entity, name: string, index: number, label: string): void {
  const self = item.links.get('self')?.find((link) => !link.templated)?.href;
  const { id } = item.properties as { id?: unknown };
  const key = self ? { self } : typeof id === 'string' || typeof id === 'number' ? { id } : {};
  origins.set(item, { parent, step: { kind: 'embedded', name, index, label, ...key } });
}

/** The way to `entity`: as recorded, through its parent when embedded, else from its address. */
export function chainTo(entity: Entity): readonly Step[] {
  const recorded = chains.get(entity);
  if (recorded) return recorded;
  const origin = origins.get(entity);
  if (origin) return [...chainTo(origin.parent), origin.step];
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

/** The expression that finds `step`'s resource among `parent`'s embedded ones: by `self`, else `id`, else place. */
function pick(parent: string, step: EmbeddedStep): string {
  const list = `${parent}.embedded(${JSON.stringify(step.name)})`;
  if (step.self !== undefined) {
    return `${list}.find((item) => item.links.get('self')?.[0]?.href === ${JSON.stringify(step.self)})`;
  }
  if (step.id !== undefined) return `${list}.find((item) => item.properties.id === ${JSON.stringify(step.id)})`;
  return `${list}[${step.index}]`;
}

/** `steps` as a script on the SDK: the client, then one `await` per request. */
export function sdkCode(steps: readonly Step[], baseUrl: string): string {
  const lines = [
    '// TypeScript (an ES module: top-level await). Run with: STOREFRONT_TOKEN=… npx tsx explore.ts',
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
  let deleted = false;
  for (const step of steps) {
    deleted = false;
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
      const parent = current;
      current = fresh(nameOf(step, parent));
      const gone = `${step.label} is no longer among the ${step.name} of ${parent}`;
      lines.push(`const ${current} = ${pick(parent, step)};`);
      lines.push(`if (!${current}) throw new Error(${JSON.stringify(gone)});`);
    } else {
      const args = step.args && Object.keys(step.args).length ? `, ${literal(step.args)}` : '';
      const call = `await ${current}.follow(${JSON.stringify(step.rel)}${args});`;
      deleted = step.method === 'DELETE';
      if (deleted) lines.push(call);
      else {
        current = fresh(nameOf(step, current));
        lines.push(`const ${current} = ${call}`);
      }
    }
  }
  // What the last request answered: the resource as received (HAL+JSON), or that the delete was done.
  lines.push(deleted ? "console.log('Deleted.');" : `console.log(JSON.stringify(${current}, null, 2));`);
  return `${lines.join('\n')}\n`;
}
