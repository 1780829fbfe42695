import { API_LIMITS } from '../contract/limits.js';

/**
 * JSON's worst expansion of a template body: the API takes any character in one, and JSON writes a control
 * character (one byte) as `\u00XX`, six. Ordinary templates grow by a tenth; this bounds the hostile ones too.
 */
export const JSON_ESCAPE_FACTOR = 6;

/** What a template, an asset or the theme itself holds besides a body or settings, at most (names ≤ 120 characters). */
const MEMBERS_BYTES = 4096;

/**
 * The largest answer the API sends: a theme at every one of `API_LIMITS`, its templates embedded with their bodies,
 * each body escaped by {@link JSON_ESCAPE_FACTOR}, its settings (sent as stored) and assets beside. About 380 MiB;
 * every other answer is far smaller (a page holds at most 100 summaries, without bodies). The SDK's default limit of
 * an answer that may be a theme, and the themes CLI's limit of every answer.
 */
export function maxThemeDocumentBytes(): number {
  const { templatesPerTheme, templateBytes, assetsPerTheme, settingsBytes } = API_LIMITS;
  return (
    templatesPerTheme * (JSON_ESCAPE_FACTOR * templateBytes + MEMBERS_BYTES) +
    assetsPerTheme * MEMBERS_BYTES +
    settingsBytes +
    MEMBERS_BYTES
  );
}
