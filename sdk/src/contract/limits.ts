/**
 * The API's limits, declared once: the reference server enforces them, the SDK sizes its default answer limit by
 * them, the themes CLI checks files against them before sending or reading, and the OpenAPI document states them
 * in its schemas. Exported by the SDK's entry, so that an app can check a file before sending it.
 *
 * Sizes are written as numbers, not products (`64 * 1024`): in the package as built, a bundler keeps an object
 * whose members are expressions (one might call `valueOf`) even when nothing uses it, so every app would carry it.
 */
export const API_LIMITS = {
  /** Longest theme title, in characters (after trimming; an empty one is refused). */
  themeTitleLength: 200,
  /** Largest theme settings object, in bytes of its JSON. */
  settingsBytes: 65_536, // 64 KiB
  /** Deepest nesting of a theme's settings. */
  settingsDepth: 16,
  /** Largest template body, in UTF-8 bytes. */
  templateBytes: 65_536, // 64 KiB
  /** Largest asset file, in bytes. */
  assetBytes: 1_048_576, // 1 MiB
  /** Most templates in one theme. */
  templatesPerTheme: 1000,
  /** Most assets in one theme. */
  assetsPerTheme: 300,
  /** Most bytes of all asset files of one theme together. */
  assetBytesPerTheme: 67_108_864, // 64 MiB
  /** Longest template or asset file name, in characters. */
  fileNameLength: 120,
  /** Smallest and largest `per_page` of a list; the default. */
  perPage: { min: 1, max: 100, default: 30 },
  /** Highest `page` of a list. */
  maxPage: 999_999_999,
  /** Longest free-text search (`q`), in characters. */
  searchLength: 200,
  /** Longest `after` cursor of a list, in characters. */
  cursorLength: 1024,
  /** Longest long-poll of the event list (`wait`), in seconds. */
  eventWaitSeconds: 30,
  /** Longest webhook endpoint `url`, in characters. */
  webhookUrlLength: 2048,
  /** Longest webhook endpoint `description`, in characters. */
  webhookDescriptionLength: 500,
} as const;

/**
 * Extensions an asset's file name may end with (lower case); its bytes must be a file of that kind. Apart from
 * {@link API_LIMITS}, which the SDK's client bundles (it sizes answers by them), so that no client carries the list.
 */
export const ASSET_EXTENSIONS = [
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'svg',
  'ico',
  'woff',
  'woff2',
  'ttf',
  'otf',
] as const;
