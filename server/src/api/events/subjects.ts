/**
 * The events of the theme writes: each event's `data` (the subject's summary fields) and its `etag`, which is the
 * one a GET of the subject answers right after the write, so that a receiver's conditional GET of `svc:subject`
 * costs a 304 while nothing changed since. Built inside the write, from the rows it stages.
 */
import type { CoreContext } from '../../core/types.js';
import type { AssetRow, TemplateRow, ThemeRow, Transaction } from '../../store/types.js';
import { halEntity } from '../hal.js';
import { assetFileValidators, assetResource, templateResource, themeResource } from '../themes/representations.js';
import { assetFileUrl, templateUrl, themeUrl } from '../themes/urls.js';
import { shopUrl } from '../urls.js';
import { type NewEvent, recordEvent } from './record.js';

type Change = 'created' | 'updated' | 'deleted';

/** Records `theme.created` or `theme.updated`; `tx` shows the theme's templates and assets as the write leaves them. */
export function themeEvent(tx: Transaction, context: CoreContext, theme: ThemeRow, change: 'created' | 'updated') {
  const a = context.addresses;
  const document = themeResource(a, tx, theme, shopUrl(a, theme.shop_id));
  const { etag } = halEntity(a, document, Date.parse(theme.updated_on));
  const data = { id: theme.id, title: theme.title, production: theme.production, updated_on: theme.updated_on, etag };
  return recordEvent(tx, context, {
    type: `theme.${change}`,
    shopId: theme.shop_id,
    data,
    subject: themeUrl(a, theme.id),
  });
}

/** Records `template.created`, `.updated` or `.deleted`. */
export function templateEvent(
  tx: Transaction,
  context: CoreContext,
  theme: ThemeRow,
  template: TemplateRow,
  change: Change,
) {
  const a = context.addresses;
  const { body: _body, _class, _links, ...fields } = templateResource(a, template);
  const data = { ...(fields as Omit<NewEvent<'template.created'>['data'], 'theme_id'>), theme_id: theme.id };
  const event: NewEvent = { type: `template.${change}`, shopId: theme.shop_id, data };
  if (change !== 'deleted') {
    data.etag = halEntity(a, templateResource(a, template), Date.parse(template.updated_on)).etag;
    event.subject = templateUrl(a, theme.id, template.id);
  }
  return recordEvent(tx, context, event);
}

/** Records `theme_asset.created`, `.updated` or `.deleted`: its subject is the asset's file. */
export function assetEvent(tx: Transaction, context: CoreContext, theme: ThemeRow, asset: AssetRow, change: Change) {
  const a = context.addresses;
  const { _class, _links, ...fields } = assetResource(a, asset);
  const data = { ...(fields as Omit<NewEvent<'theme_asset.created'>['data'], 'theme_id'>), theme_id: theme.id };
  const event: NewEvent = { type: `theme_asset.${change}`, shopId: theme.shop_id, data };
  if (change !== 'deleted') {
    data.etag = assetFileValidators(asset).etag;
    event.subject = assetFileUrl(a, asset);
  }
  return recordEvent(tx, context, event);
}
