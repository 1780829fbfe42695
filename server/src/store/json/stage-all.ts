import { mapLimited } from '@storefront-platform/sdk/internal';
import { FILES_AT_ONCE, type Staged } from './durable-file.js';

/**
 * Stages a change for each of `items` (see `Staged`), as one change: all are staged or, on a failure, none is
 * left behind (what was staged is discarded before the failure is reported, so a full disk gets its space back).
 */
export async function stageAll<T>(items: readonly T[], stage: (item: T) => Promise<Staged>): Promise<Staged> {
  const staged: Staged[] = [];
  try {
    await mapLimited(items, FILES_AT_ONCE, async (item) => {
      staged.push(await stage(item));
    });
  } catch (error) {
    await Promise.all(staged.map((change) => change.discard()));
    throw error;
  }
  const discard = () => Promise.all(staged.map((change) => change.discard())).then(() => undefined);
  return {
    async commit() {
      try {
        await mapLimited(staged, FILES_AT_ONCE, (change) => change.commit());
      } catch (error) {
        // The changes a failure kept from their commit (discarding a committed one finds nothing to delete).
        await discard();
        throw error;
      }
    },
    discard,
  };
}
