import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUMP_FILES, dumpPostgresSchema, dumpSqliteSchema } from '../../src/store/schema/dump.js';
import { CLAIM_TASKS_FUNCTION } from '../../src/store/tasks/claim.js';
import { openTestStore, postgresUnavailableReason } from '../helpers/stores.js';

const pgSkip = await postgresUnavailableReason();
const DUMPS = path.resolve(import.meta.dirname, '../../src/store/schema');
const committed = (kind: keyof typeof DUMP_FILES) => fs.readFileSync(path.join(DUMPS, DUMP_FILES[kind]), 'utf8');
const stale = (kind: keyof typeof DUMP_FILES) =>
  `src/store/schema/${DUMP_FILES[kind]} is not the schema the migrations make: run \`npm run schema:dump\``;

/** The committed schema dumps are what migrating a fresh database makes (src/store/schema/dump.ts). */
describe('schema dumps', () => {
  it('SQLite: the committed dump is current', async () => {
    const { store, close } = await openTestStore('sqlite');
    try {
      expect(await dumpSqliteSchema(store.db), stale('sqlite')).toBe(committed('sqlite'));
    } finally {
      await close();
    }
  });

  it.skipIf(pgSkip !== null)('PostgreSQL: the committed dump is current', async () => {
    const { store, close } = await openTestStore('postgres');
    try {
      expect(await dumpPostgresSchema(store.db), stale('postgres')).toBe(committed('postgres'));
    } finally {
      await close();
    }
  });

  it('the PostgreSQL claim in src/store is the function the migrations define', () => {
    // One statement, as the dump shows it between its $function$ quotes.
    const body = /FUNCTION aeq_claim_tasks\([^)]*\)[^$]*\$function\$([\s\S]*?)\$function\$/.exec(committed('postgres'));
    expect(body?.[1]).toBe(CLAIM_TASKS_FUNCTION);
  });
});
