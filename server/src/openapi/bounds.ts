/**
 * What the server enforces beyond the contract's types, stated in the document's schemas (bounds, patterns,
 * enums), so that a request a tool generates from the document is one the server takes, or the document says
 * why not. Values come from the contract's `API_LIMITS`, which the server enforces;
 * server/test/openapi/walk.test.ts sends each bound to a real server.
 */
import { API_LIMITS, ASSET_EXTENSIONS } from '@storefront-platform/sdk/internal';
import { MAX_ASSET_BYTES } from '../api/themes/asset.js';
import { CONTRACT } from './contract.js';
import type { Schema } from './contract-types.js';

const {
  maxPage: MAX_PAGE,
  searchLength: MAX_SEARCH_LENGTH,
  eventWaitSeconds: MAX_WAIT_S,
  webhookUrlLength: MAX_URL_LENGTH,
  webhookDescriptionLength: MAX_DESCRIPTION_LENGTH,
  cursorLength: MAX_CURSOR_LENGTH,
} = API_LIMITS;

/** One comma-separated item: not blank, no comma (the list is split on commas, blanks dropped). */
const LIST_ITEM = '^[^,]*[^,\\s][^,]*$';

/** Bounds of query parameters, by name, merged into their schema (into the items' of a list). */
export const QUERY_BOUNDS: Readonly<Record<string, Schema>> = {
  page: { minimum: 1, maximum: MAX_PAGE, default: 1 },
  per_page: {
    minimum: API_LIMITS.perPage.min,
    maximum: API_LIMITS.perPage.max,
    default: API_LIMITS.perPage.default,
  },
  q: { maxLength: MAX_SEARCH_LENGTH },
  wait: { minimum: 0, maximum: MAX_WAIT_S, default: 0 },
  // The event list's `after` is an event id (`evt_` and 24 letters or digits, events/record.ts).
  after: {
    pattern: '^evt_[a-z0-9]{24}$',
    description:
      'An event id: only the events written after it. One the server does not hold (events are kept 30 days) is a 400.',
  },
};

/** Bounds of a comma-separated list parameter: at least one item, none blank. */
export const LIST_BOUNDS: Schema = { minItems: 1 };
/** Bounds of a string item of a comma-separated list. */
export const LIST_ITEM_BOUNDS: Schema = { pattern: LIST_ITEM };

/** The keyset cursor of a list's `next` link (`after`), which the contract's link templates leave out. */
export const CURSOR_PARAMETER = {
  name: 'after',
  in: 'query',
  description:
    'Where the page starts: the cursor of a `next` link, opaque. One the server did not write, or wrote for another `sort`, is a 400; follow `next` rather than making one.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: MAX_CURSOR_LENGTH },
};

/** A file name: one optional folder, then a name and one of `extensions` (file-path.ts; any letter case). */
function fileNamePattern(extensions: readonly string[]): string {
  const segment = '[A-Za-z0-9._-]*[A-Za-z0-9_-][A-Za-z0-9._-]*';
  const anyCase = (extension: string) =>
    [...extension].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');
  return `^(${segment}/)?[A-Za-z0-9._-]+\\.(${extensions.map(anyCase).join('|')})$`;
}

/** The extensions of templates: each names the content type. */
function templateExtensions(): string[] {
  const types = CONTRACT.schemas.TemplateContentType?.enum as string[] | undefined;
  if (!types) throw new Error('the contract has no TemplateContentType');
  return types;
}

/** The name of a theme's template or asset, as its preview folder serves it. */
export function themeFileName(): Schema {
  return {
    type: 'string',
    maxLength: API_LIMITS.fileNameLength,
    pattern: fileNamePattern([...templateExtensions(), ...ASSET_EXTENSIONS]),
  };
}

/** The template file name's schema: the extension names the content type. */
export function templateFileName(): Schema {
  const types = templateExtensions();
  return {
    type: 'string',
    minLength: 1,
    maxLength: API_LIMITS.fileNameLength,
    pattern: fileNamePattern(types),
    description: `At most one folder; letters, digits, \`.\`, \`_\`, \`-\`; ends in .${types.join(', .')} (the content type).`,
  };
}

/** The asset file name's schema. */
export function assetFileName(): Schema {
  return {
    type: 'string',
    minLength: 1,
    maxLength: API_LIMITS.fileNameLength,
    pattern: fileNamePattern(ASSET_EXTENSIONS),
    description: `At most one folder; letters, digits, \`.\`, \`_\`, \`-\`; ends in .${ASSET_EXTENSIONS.join(', .')}.`,
  };
}

/** The contract's `string | number`, each of a form the guard reads. */
const LAST_UPDATED_ON: Schema = {
  anyOf: [
    { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' },
    { type: 'integer', minimum: 0 },
  ],
};

const WEBHOOK_URL: Schema = {
  type: 'string',
  format: 'uri',
  pattern: '^[hH][tT][tT][pP][sS]?://[^/?#@]+',
  maxLength: MAX_URL_LENGTH,
  description:
    'Absolute `http(s)://` address, without credentials, events are POSTed to. Private and loopback addresses are a 422 unless the server was started to allow them.',
};
const WEBHOOK_EVENTS: Schema = { minItems: 1 };

/** Base64 of a file of at most `bytes` bytes. */
const base64Of = (bytes: number): Schema => ({
  type: 'string',
  pattern: '^(data:[^,]*;base64,)?[A-Za-z0-9+/]*={0,2}$',
  maxLength: Math.ceil(bytes / 3) * 4 + 64,
});

/** Refinements of the contract's body schemas, by component and member (merged over the member's schema). */
function bodyBounds(): Record<string, Record<string, Schema>> {
  const templateBody: Schema = {
    maxLength: API_LIMITS.templateBytes,
    // JSON Schema counts characters, the server bytes: `maxLength` is the bound for ASCII text only.
    description: `The template's source; at most ${API_LIMITS.templateBytes} bytes as UTF-8 (413 beyond). \`maxLength\` counts characters: text with characters of more than one byte (\`é\` is two) reaches the limit sooner, and a body the schema takes may still be a 413.`,
  };
  return {
    UpdateThemeBody: {
      title: { pattern: '\\S', maxLength: API_LIMITS.themeTitleLength, description: 'Not blank.' },
      settings: {
        propertyNames: { not: { const: '__proto__' } },
        description: `At most ${API_LIMITS.settingsBytes} bytes as JSON (413 beyond), nested at most ${API_LIMITS.settingsDepth} deep; no \`__proto__\` key at any depth.`,
      },
    },
    CreateTemplateBody: { file_name: templateFileName(), body: templateBody, last_updated_on: LAST_UPDATED_ON },
    UpdateTemplateBody: { file_name: templateFileName(), body: templateBody, last_updated_on: LAST_UPDATED_ON },
    CreateThemeAssetBody: {
      file_name: assetFileName(),
      data: {
        ...base64Of(MAX_ASSET_BYTES),
        description: `The file as base64 (a \`data:*;base64,\` prefix is tolerated), at most ${MAX_ASSET_BYTES} bytes decoded; its bytes must be a file of the name's extension (422 otherwise).`,
      },
    },
    CreateWebhookEndpointBody: {
      url: WEBHOOK_URL,
      events: WEBHOOK_EVENTS,
      description: { maxLength: MAX_DESCRIPTION_LENGTH },
    },
    UpdateWebhookEndpointBody: {
      url: WEBHOOK_URL,
      events: WEBHOOK_EVENTS,
      description: { maxLength: MAX_DESCRIPTION_LENGTH },
    },
  };
}

/**
 * The component schemas with the server's bounds: each refined member keeps the contract's schema (its type, its
 * description unless the bound says more) under the bound's keywords.
 */
export function boundedSchemas(schemas: Readonly<Record<string, Schema>>): Record<string, Schema> {
  const out = { ...schemas };
  for (const [component, members] of Object.entries(bodyBounds())) {
    const schema = schemas[component];
    const properties = schema?.properties as Record<string, Schema> | undefined;
    if (!properties) throw new Error(`bounds: the contract has no body ${component}`);
    const refined = { ...properties };
    for (const [member, bound] of Object.entries(members)) {
      const own = properties[member];
      if (!own) throw new Error(`bounds: ${component} has no member ${member}`);
      refined[member] = { ...own, ...bound };
    }
    out[component] = { ...schema, properties: refined };
  }
  return out;
}
