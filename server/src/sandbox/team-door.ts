/** The control API's answers for the team's data (`team.ts`): each kind created (201), listed, removed (204). */
import type { CoreRequest, CoreResponse } from '../core/types.js';
import { json } from './answers.js';
import { TEAM_KINDS, type TEAM_OPERATIONS } from './team-operations.js';
import type { SandboxTeam, TeamItemFilter } from './team-types.js';

type Answer = (request: CoreRequest, name: string) => Promise<CoreResponse>;

/** The kind's name in one (`apps` → `app`): its `_class`. */
const one = (kind: string) => kind.slice(0, -1);

/**
 * The team operations answered over `team`; `href` makes a control URL of a path, `bodyOf` reads a request's
 * JSON object (the door's own, so that a bad body is refused alike everywhere).
 */
export function teamAnswers(
  team: SandboxTeam,
  href: (path: string) => string,
  bodyOf: (request: CoreRequest) => Promise<Record<string, unknown>>,
): Record<keyof typeof TEAM_OPERATIONS, Answer> {
  const noContent: CoreResponse = { status: 204, headers: { 'cache-control': 'no-store' } };
  const filterOf = (request: CoreRequest): TeamItemFilter => {
    const shop = request.url.searchParams.get('shop');
    return shop === null ? {} : { shop };
  };
  const answers: Partial<Record<string, Answer>> = {};
  for (const kind of TEAM_KINDS) {
    // No `self`: an item is not read on its own (the list has them all); its link is where `DELETE` removes it.
    const item = (row: { id: string }) => ({
      _class: [one(kind)],
      ...row,
      _links: { remove: { href: href(`/${kind}/${encodeURIComponent(row.id)}`) } },
    });
    const operations = team[kind] as {
      add(input: unknown): Promise<{ id: string }>;
      list(filter?: TeamItemFilter): Promise<{ id: string }[]>;
      remove(id: string): Promise<void>;
    };
    answers[`${kind}.add`] = async (request) => {
      return json(201, item(await operations.add(await bodyOf(request))));
    };
    answers[`${kind}.list`] = async (request) =>
      json(200, {
        _class: [kind],
        [kind]: (await operations.list(filterOf(request))).map(item),
        _links: { self: { href: href(`/${kind}`) } },
      });
    answers[`${kind}.remove`] = async (_, id) => {
      await operations.remove(id);
      return noContent;
    };
  }
  return answers as Record<keyof typeof TEAM_OPERATIONS, Answer>;
}
