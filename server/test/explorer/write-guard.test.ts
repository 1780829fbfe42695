/**
 * The explorer's PUT of a template, built by its own code (the body prefilled from the resource shown, the request
 * sent by its `Api`), against a change made through the API within the same second as its last save: a refusal
 * every time, the change kept. The server's clock stands still within a round, so every write of it lands in one
 * second. Shown on its own page a template has its ETag (`If-Match`, a 412); shown embedded in its theme it has
 * none, and its `last_updated_on` to the millisecond guards it (a 422 on `updated_on`).
 */
import { type Entity, PreconditionFailedError, ValidationError } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/support/manual-clock.js';
import { Api, type Outcome, writeGuard } from '../../src/explorer/page/api.js';
import { prefilledBody } from '../../src/explorer/page/bodies.js';
import { failureText } from '../../src/explorer/page/failure-text.js';
import { useThemeServer } from '../themes/fixture.js';

const ROUNDS = 20;
const clock = manualClock(Date.UTC(2026, 4, 2, 8, 30, 0, 400));
const t = useThemeServer({ clock });
const seconds = (iso: unknown) => Math.floor(Date.parse(String(iso)) / 1000);

function shown(outcome: Outcome): Entity {
  if (outcome.kind !== 'entity') throw new Error(`expected a resource, got ${outcome.kind}: ${String(outcome)}`);
  return outcome.entity;
}

/** What the explorer sends when its PUT dialog is submitted with `body` typed into the prefilled JSON. */
function save(api: Api, template: Entity, body: string): Promise<Outcome> {
  const prefilled = prefilledBody('svc:update_template', 'PUT', template.properties as Record<string, unknown>);
  return api.follow(template, 'svc:update_template', { ...prefilled, body });
}

describe("the explorer's PUT of a template", () => {
  it(`is refused after a change made in the second of its last save, ${ROUNDS} times out of ${ROUNDS}`, async () => {
    const api = new Api(t.base, t.admin);
    const created = await t.json('/themes/1/templates', {
      method: 'POST',
      json: { file_name: 'explorer/guarded.html', body: 'start' },
      status: 201,
    });
    const url = `${t.base}/themes/1/templates/${created.id}`;
    for (let round = 1; round <= ROUNDS; round++) {
      clock.advance(1000);
      const embedded = round % 2 === 0;
      const opened = embedded
        ? shown(await api.open(`${t.base}/themes/1`))
            .embedded('templates')
            .find((x) => x.properties.file_name === 'explorer/guarded.html')!
        : shown(await api.open(url));
      // The page then shows what the PUT answered, and the next save starts from that.
      const saved = shown(await save(api, opened as Entity, `mine ${round}`));
      const theirs = await t.json(url, { method: 'PUT', json: { body: `theirs ${round}` }, status: 200 });
      expect(seconds(theirs.updated_on)).toBe(seconds(saved.properties.updated_on));
      const again = await save(api, embedded ? (opened as Entity) : saved, `mine again ${round}`);
      expect(again.kind).toBe('error');
      const error = (again as { error: unknown }).error;
      if (embedded) {
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).errors[0]?.field).toBe('updated_on');
      } else {
        expect(error).toBeInstanceOf(PreconditionFailedError);
        expect(again.answer?.status).toBe(412);
        // The dialog says what to do, as the 422's field message does: reload.
        expect(failureText(error).sentence).toMatch(/reload it/);
      }
      expect((await t.json(url)).body).toBe(`theirs ${round}`);
    }
  });

  it('sends If-Match on writes to the resource shown with an ETag, and only there', async () => {
    const api = new Api(t.base, t.admin);
    const theme = shown(await api.open(`${t.base}/themes/1`));
    const embedded = theme.embedded('templates').find((x) => x.can('svc:delete_template'))!;
    const page = shown(await api.open(embedded.link('self').resolve().url));
    const etag = page.response!.headers.get('etag')!;
    expect(writeGuard(page, 'svc:update_template')).toEqual({ ifMatch: etag });
    expect(writeGuard(page, 'svc:delete_template')).toEqual({ ifMatch: etag });
    // Embedded, it came without an ETag of its own; a create goes to the collection, not to the theme shown.
    expect(writeGuard(embedded, 'svc:update_template')).toEqual({});
    expect(writeGuard(theme, 'svc:create_template')).toEqual({});
    expect(writeGuard(theme, 'svc:update_theme')).toEqual({ ifMatch: theme.response!.headers.get('etag') });
  });
});
