/** Template endpoints (spec §4.2, §4.3): read, create or upsert by file name, update, delete. */
import { assertPreconditions, NO_REPRESENTATION } from '../../http/conditional.js';
import { validationError } from '../../http/http-error.js';
import type { Call, Route } from '../../http/route.js';
import { readBody } from '../contract-schemas.js';
import { templateEvent } from '../events/subjects.js';
import { guardedWrite } from '../guarded-write.js';
import { administeredTheme, themeTemplate } from './lookup.js';
import { templateEntity } from './representations.js';
import {
  checkLastSeen,
  checkTemplateBody,
  deleteTemplate,
  MAX_TEMPLATE_BYTES,
  parseTemplateFileName,
  saveTemplate,
  updateTemplate,
} from './template.js';
import { templateUrl } from './urls.js';

/** JSON escapes can make a body up to six times its text; past this the request is refused unread. */
const MAX_REQUEST_BYTES = MAX_TEMPLATE_BYTES * 6 + 4096;

function checkedFileName(value: string): string {
  const parsed = parseTemplateFileName(value);
  if (typeof parsed === 'string') throw validationError('file_name', parsed);
  return parsed.file_name;
}

/** The theme and template a template URL names, if the caller administers the theme; else 404. */
function templateOf(call: Call) {
  const { theme } = administeredTheme(call, call.params.theme_id!);
  return { theme, template: themeTemplate(call, theme, call.params.template_id!) };
}

/** Routes of templates on the API mount. */
export const templateRoutes: Route[] = [
  {
    method: 'GET',
    path: '/themes/:theme_id/templates/:template_id',
    scope: 'admin',
    handle(call) {
      return { entity: templateEntity(call, templateOf(call).template) };
    },
  },
  {
    method: 'POST',
    path: '/themes/:theme_id/templates',
    scope: 'admin',
    async handle(call) {
      const { theme } = administeredTheme(call, call.params.theme_id!);
      assertPreconditions(call.request.headers, NO_REPRESENTATION);
      const input = await readBody(call.request, 'theme', 'svc:create_template', MAX_REQUEST_BYTES);
      const file_name = checkedFileName(input.file_name);
      checkTemplateBody(input.body);
      checkLastSeen(input.last_updated_on);
      const { template, created } = await call.context.store.write((tx) => {
        const saved = saveTemplate(tx, theme, { ...input, file_name }, call.context.clock.now());
        templateEvent(tx, call.context, theme, saved.template, saved.created ? 'created' : 'updated');
        return saved;
      });
      const entity = templateEntity(call, template);
      if (!created) return { entity };
      return { status: 201, entity, headers: { location: templateUrl(call.context.addresses, theme.id, template.id) } };
    },
  },
  {
    method: 'PUT',
    path: '/themes/:theme_id/templates/:template_id',
    scope: 'admin',
    async handle(call) {
      const { theme, template: seen } = templateOf(call);
      // RFC 9110 §13.2.1: preconditions before the content is looked at (a stale client gets its 412, not a
      // 422 about a body it would not send again); checked again below, where it counts.
      assertPreconditions(call.request.headers, templateEntity(call, seen));
      const body = await readBody(call.request, 'themeTemplate', 'svc:update_template', MAX_REQUEST_BYTES);
      const input = { ...body, file_name: body.file_name === undefined ? undefined : checkedFileName(body.file_name) };
      if (input.body !== undefined) checkTemplateBody(input.body);
      checkLastSeen(input.last_updated_on);
      const template = await guardedWrite(
        call,
        () => templateOf(call).template,
        templateEntity,
        (tx, current) => {
          const updated = updateTemplate(tx, theme, current, input, call.context.clock.now());
          templateEvent(tx, call.context, theme, updated, 'updated');
          return updated;
        },
      );
      return { entity: templateEntity(call, template) };
    },
  },
  {
    method: 'DELETE',
    path: '/themes/:theme_id/templates/:template_id',
    scope: 'admin',
    async handle(call) {
      const { theme } = templateOf(call);
      await guardedWrite(
        call,
        () => templateOf(call).template,
        templateEntity,
        (tx, current) => {
          deleteTemplate(tx, theme, current, call.context.clock.now());
          templateEvent(tx, call.context, theme, current, 'deleted');
        },
      );
      return { status: 204 };
    },
  },
];
