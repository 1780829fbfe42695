/**
 * The registry entries of the theme, template and asset relations: they give the links' `method`,
 * `title` and `type`, and the `/rels/{rel}` documentation pages.
 */
import { API_LIMITS, ASSET_EXTENSIONS } from '@storefront-platform/sdk/internal';
import type { RelationTable, ThemeRelationName } from '../relation-entry.js';

const MIB = 1024 * 1024;

/** The registry entries of the theme, template and asset relations. */
export const themeRelations: RelationTable<ThemeRelationName> = {
  'svc:update_theme': {
    method: 'put',
    title: 'Update theme',
    summary: 'Change the theme’s title or settings.',
    target: 'The updated theme (`_class ["theme"]`), 200.',
    payload:
      'JSON `{"title"?: string, "settings"?: object}`. `settings` replaces the whole settings object: at most 64 KiB as JSON (413 beyond), nested at most 16 deep, no `__proto__` keys. Any other member is a 422.',
    example: 'PUT /v1/themes/3 {"settings":{"accent":"#0a7"}} → 200 theme',
  },
  'svc:create_template': {
    method: 'post',
    title: 'Create template',
    summary: 'Add an HTML, CSS or JavaScript template to the theme, or replace the one with the same file name.',
    target: 'The template (`_class ["themeTemplate"]`): 201 with `Location` when created, 200 when it replaced one.',
    payload:
      'JSON `{"file_name": string, "body": string, "last_updated_on"?: string | integer}`. `file_name`: 1–2 path segments of letters, digits, `.`, `_`, `-`, ending in `.html`, `.css` or `.js`. `body`: at most 64 KiB of UTF-8 (413 beyond). `last_updated_on`: the `updated_on` you last saw, as given (to the millisecond); when the existing template has changed since, the answer is a 422 on `updated_on` and nothing is written. Epoch seconds are still taken from older clients, but refused (the same 422) when the template changed more than once within that second, since they cannot tell which version you saw. A theme holds at most 1000 templates. Preconditions concern the template of that file name: `If-None-Match: *` creates only (412 when the name is taken), `If-Match` with its `ETag` (or `*`) replaces only that version (412 when it changed or there is none), `If-Unmodified-Since` its `Last-Modified`.',
    example:
      'POST /v1/themes/3/templates {"file_name":"partials/footer.html","body":"<footer>…</footer>"} → 201 template',
  },
  'svc:create_theme_asset': {
    method: 'post',
    title: 'Upload asset',
    summary: 'Upload a file (image or font) for the theme, or replace the one with the same file name.',
    target: 'The asset (`_class ["themeAsset"]`): 201 when created, 200 when it replaced one.',
    payload: `JSON \`{"file_name": string, "data": base64}\` (line breaks and a \`data:…;base64,\` prefix are tolerated), or \`multipart/form-data\` with a \`file\` part (stored under its filename, or under an optional \`file_name\` field). At most ${API_LIMITS.assetBytes / MIB} MiB (413 beyond). Allowed: .${ASSET_EXTENSIONS.join(', .')}, and the bytes must be a file of that kind (a PNG named .gif is a 422). A theme holds at most ${API_LIMITS.assetsPerTheme} assets and ${API_LIMITS.assetBytesPerTheme / MIB} MiB of files in all. Preconditions concern the asset of that file name, whose \`ETag\` is its file's, the quoted \`digest\`: \`If-None-Match: *\` uploads only a new file (412 when the name is taken), \`If-Match\` replaces only that version (412 when it changed or there is none).`,
    example: 'POST /v1/themes/3/assets {"file_name":"images/logo.png","data":"iVBORw0KGgo…"} → 201 asset',
  },
  'svc:theme_preview': {
    method: 'get',
    type: 'text/html',
    summary:
      'An HTML preview of the theme: its layout.html, with the stylesheets, scripts and images it references by relative path served alongside it.',
    target:
      'An HTML page (`text/html`) on `{static_url}`, openable in a browser without a token. The address is stable per theme and always shows the theme’s current templates and assets; it is known only from the theme’s representation.',
    example: 'GET /static/themes/3/preview/5f2c…/ → 200 text/html',
  },
  'svc:dev_theme': {
    method: 'get',
    title: 'Development theme',
    summary: 'The shop’s development theme, where changes are tried before they reach the production theme.',
    target: 'A theme (`_class ["theme"]`, `production: false`).',
    example: 'GET /v1/themes/4 → 200 theme',
  },
  'svc:create_dev_theme': {
    method: 'post',
    title: 'Create development theme',
    summary: 'Create the shop’s development theme as a copy of its production theme (templates, assets, settings).',
    target: 'The development theme: 201 with `Location` when created, 200 when the shop already has one.',
    payload: 'None. `If-None-Match: *` creates only: 412 when the shop already has a development theme.',
    example: 'POST /v1/shops/1/themes → 201 theme',
  },
  'svc:update_template': {
    method: 'put',
    title: 'Update template',
    summary: 'Change a template’s body or file name.',
    target: 'The updated template (`_class ["themeTemplate"]`), 200.',
    payload:
      'JSON `{"body"?: string, "file_name"?: string, "last_updated_on"?: string | integer}`, same rules as `svc:create_template`. `If-Match` with the template’s `ETag` guards the write as well (412 when it changed since). A file name taken by another template of the theme is a 422; `layout.html` cannot be renamed.',
    example: 'PUT /v1/themes/3/templates/12 {"body":"…","last_updated_on":"2026-11-20T10:50:12.345Z"} → 200 template',
  },
  'svc:delete_template': {
    method: 'delete',
    title: 'Delete template',
    summary: 'Delete a template. Present only on deletable templates (every one but `layout.html`).',
    target: 'Nothing: 204.',
    example: 'DELETE /v1/themes/3/templates/12 → 204',
  },
  'svc:delete_theme_asset': {
    method: 'delete',
    title: 'Delete asset',
    summary: 'Delete a theme asset and its file.',
    target: 'Nothing: 204.',
    example: 'DELETE /v1/themes/3/assets/5 → 204',
  },
};
