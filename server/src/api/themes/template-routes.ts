/** Template endpoints (spec §4.2, §4.3): read, create or upsert by file name, update, delete. */
import { assertPreconditions } from '../../http/conditional.js';
import { validationError } from '../../http/http-error.js';
import type { Call, Reply, Route } from '../../http/route.js';
import { readBody } from '../contract-schemas.js';
import { templateEvent } from '../events/subjects.js';
import { guardedDelete, guardedWrite, preconditionsOn } from '../guarded-write.js';
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

/** A template. */
function showTemplate(call: Call): Reply {
  return { entity: templateEntity(call, templateOf(call).template) };
}

/**
 * Creates a template, or replaces the one of that file name. The preconditions are checked against that template
 * (none: `If-None-Match: *` holds, so it means "create only"), once the body has named it.
 */
async function createTemplate(call: Call): Promise<Reply> {
  const { theme } = administeredTheme(call, call.params.theme_id!);
  const input = await readBody(call.request, 'theme', 'svc:create_template', MAX_REQUEST_BYTES);
  const file_name = checkedFileName(input.file_name);
  checkTemplateBody(input.body);
  checkLastSeen(input.last_updated_on);
  const { template, created } = await call.context.store.write((tx) => {
    const guard = preconditionsOn(call, templateEntity);
    const saved = saveTemplate(tx, theme, { ...input, file_name }, call.context.clock.now(), guard);
    templateEvent(tx, call.context, theme, saved.template, saved.created ? 'created' : 'updated');
    return saved;
  });
  const entity = templateEntity(call, template);
  if (!created) return { entity };
  return { status: 201, entity, headers: { location: templateUrl(call.context.addresses, theme.id, template.id) } };
}

/** Updates a template: its body and/or its file name. */
async function editTemplate(call: Call): Promise<Reply> {
  const { theme, template: seen } = templateOf(call);
  // RFC 9110 §13.2.1: preconditions before the content is looked at (a stale client gets its 412, not a
  // 422 about a body it would not send again); checked again below, where it counts.
  assertPreconditions(call.request.headers, templateEntity(call, seen));
  const body = await readBody(call.request, 'themeTemplate', 'svc:update_template', MAX_REQUEST_BYTES);
  const input = { ...body, file_name: body.file_name === undefined ? undefined : checkedFileName(body.file_name) };
  if (input.body !== undefined) checkTemplateBody(input.body);
  checkLastSeen(input.last_updated_on);
  const current = () => templateOf(call).template;
  const template = await guardedWrite(call, current, templateEntity, (tx, row) => {
    const updated = updateTemplate(tx, theme, row, input, call.context.clock.now());
    templateEvent(tx, call.context, theme, updated, 'updated');
    return updated;
  });
  return { entity: templateEntity(call, template) };
}

/** Deletes a template. */
function removeTemplate(call: Call): Promise<Reply> {
  const { theme } = templateOf(call);
  const current = () => templateOf(call).template;
  return guardedDelete(call, current, templateEntity, (tx, row, now) => {
    deleteTemplate(tx, theme, row, now);
    templateEvent(tx, call.context, theme, row, 'deleted');
  });
}

/** Routes of templates on the API mount. */
export const templateRoutes: Route[] = [
  { method: 'GET', path: '/themes/:theme_id/templates/:template_id', scope: 'admin', handle: showTemplate },
  { method: 'POST', path: '/themes/:theme_id/templates', scope: 'admin', handle: createTemplate },
  { method: 'PUT', path: '/themes/:theme_id/templates/:template_id', scope: 'admin', handle: editTemplate },
  { method: 'DELETE', path: '/themes/:theme_id/templates/:template_id', scope: 'admin', handle: removeTemplate },
];
