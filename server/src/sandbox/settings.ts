/** The rows of the store's `sandbox_settings` (the clock's offset, the rate limit set through the sandbox). */
import type { Store } from '../store/types.js';
import type { OwnWrites } from './own-writes.js';

/**
 * Removes the setting `id` for every process, once this process's own changes of it are done: for a fleet's
 * first process as it starts. Nothing is written when there is nothing to remove, so a start pays no write for it.
 */
export async function clearSetting<T>(store: Store, own: OwnWrites<T>, id: string): Promise<void> {
  await own.idle();
  if (!store.get('sandbox_settings', id)) return;
  await store.write((tx) => tx.delete('sandbox_settings', id));
}
