import { sql } from 'kysely';

/**
 * Task states written into the SQL text rather than bound, so that the partial indexes on status
 * (migrations/007-partial-task-indexes.ts) can serve the query. The statements written out in full
 * (the embedded store's) spell them the same way.
 */
export const QUEUED = sql.lit('QUEUED');
export const PROCESSING = sql.lit('PROCESSING');
