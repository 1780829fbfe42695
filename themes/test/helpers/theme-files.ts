/** A theme's files read and written through the SDK, as a merchant's other tools (or a broken copy) leave them. */
import type { Theme } from '@storefront-platform/sdk';
import { md5 } from '../../src/theme/digest.js';

/** How many requests the helpers send at once. */
const AT_ONCE = 8;

async function inBatches<T>(items: readonly T[], task: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += AT_ONCE) await Promise.all(items.slice(i, i + AT_ONCE).map(task));
}

/** Every file of a theme by folder path, with its MD5: what publish makes equal. */
export function filesOf(theme: Theme): Map<string, string> {
  return new Map([
    ...theme.embedded('templates').map((x) => [x.properties.file_name, md5(x.properties.body)] as const),
    ...theme.embedded('assets').map((x) => [`assets/${x.properties.file_name}`, x.properties.digest] as const),
  ]);
}

/** Creates a template `{prefix}{n}.html` for each n below `count`. */
export async function addTemplates(theme: Theme, prefix: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, n) => `${prefix}${String(n).padStart(4, '0')}.html`);
  await inBatches(names, (file_name) =>
    theme.follow('svc:create_template', { file_name, body: `<p>${file_name}</p>\n` }),
  );
  return names;
}

/** Deletes `count` of the theme's templates whose names start with `prefix`. */
export async function deleteTemplates(theme: Theme, prefix: string, count: number): Promise<string[]> {
  const chosen = theme
    .embedded('templates')
    .filter((x) => x.properties.file_name.startsWith(prefix))
    .slice(0, count);
  if (chosen.length < count) throw new Error(`the theme has only ${chosen.length} templates named ${prefix}…`);
  await inBatches(chosen, (x) => x.follow('svc:delete_template'));
  return chosen.map((x) => x.properties.file_name);
}
