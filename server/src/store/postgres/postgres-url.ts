/**
 * What names a PostgreSQL database, apart from the store itself: the command line and `createServer` tell a URL
 * from a path with it, and load the store (and its driver) only for a URL.
 */

/** Whether `data` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(data: string): boolean {
  return /^postgres(ql)?:\/\//i.test(data);
}

/** `text` (a store's URL or path, as given) with a URL's password masked: what messages and logs may show. */
export function withoutPassword(text: string): string {
  return text.replace(/(\/\/[^:/@]*):[^@/]*@/, '$1:***@');
}
