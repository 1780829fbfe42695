/**
 * THE relation registry: every domain's table, merged. Drives links and the `/rels/{rel}` pages. It is data:
 * it imports the tables, never the routes, so that `hal` (which routes use to build links) can read it.
 */

import { eventRelations } from './events/relations.js';
import type { RelationEntry, RelationTable, SvcRelationName } from './relation-entry.js';
import { coreRelations } from './relations.js';
import { themeRelations } from './themes/relations.js';

const registry: RelationTable<SvcRelationName> = { ...coreRelations, ...themeRelations, ...eventRelations };

/** The entry of a relation, by its full name (`svc:update_theme`); `undefined` for unknown or plain names. */
export function relationEntry(rel: string): RelationEntry | undefined {
  return Object.hasOwn(registry, rel) ? registry[rel as SvcRelationName] : undefined;
}

/** Every documented relation name, sorted. */
export function relationNames(): SvcRelationName[] {
  return (Object.keys(registry) as SvcRelationName[]).sort();
}
