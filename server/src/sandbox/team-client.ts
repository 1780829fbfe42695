/** The team's data through the control API (`connectSandbox`): the same operations and answers as in-process. */
import type { ControlOperation } from './operations.js';
import { TEAM_KINDS } from './team-operations.js';
import type { SandboxTeam, TeamItemFilter } from './team-types.js';

/** How the client calls one operation of the control API; resolves with the answer's JSON. */
export type ControlCall = (
  operation: ControlOperation,
  options?: { name?: string; body?: unknown; query?: string },
) => Promise<Record<string, unknown>>;

/** An item as the control API answers it, without its HAL members. */
function fields(body: Record<string, unknown>) {
  const { _class, _links, ...rest } = body;
  return rest;
}

/** {@link SandboxTeam} over `call`. */
export function teamClient(call: ControlCall): SandboxTeam {
  const kinds = TEAM_KINDS.map((kind) => [
    kind,
    {
      add: async (input: unknown) => fields(await call(`${kind}.add`, { body: input })),
      async list(filter: TeamItemFilter = {}) {
        const query = filter.shop === undefined ? '' : `?${new URLSearchParams({ shop: filter.shop })}`;
        return ((await call(`${kind}.list`, { query }))[kind] as Record<string, unknown>[]).map(fields);
      },
      remove: async (id: string) => void (await call(`${kind}.remove`, { name: id })),
    },
  ]);
  return Object.fromEntries(kinds) as unknown as SandboxTeam;
}
