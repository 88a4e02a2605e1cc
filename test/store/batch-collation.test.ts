import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewTask } from '../../src/domain/task.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { TEST_PG_URL, postgresUnavailableReason } from '../helpers/stores.js';

const pgSkip = await postgresUnavailableReason();

/**
 * A batch finds its tasks in the range of their ids. On a PostgreSQL database whose collation has contractions (Danish
 * reads "aa" as one letter after "z"), ids compared by that collation fall out of the range; the ids are compared
 * byte by byte ("C", postgres/migrations/016-c-collation-ids.ts), so every task of the batch is found.
 */
describe.skipIf(pgSkip !== null)('batch ids on a PostgreSQL database with a Danish collation', () => {
  const dbName = `aeq_da_${randomBytes(6).toString('hex')}`;
  let store: Store;
  const admin = () => new pg.Client({ connectionString: TEST_PG_URL });

  beforeAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(
      `create database ${dbName} template template0 encoding 'UTF8' ` +
        `locale_provider icu icu_locale 'da' locale 'C.UTF-8'`,
    );
    await c.end();
    const u = new URL(TEST_PG_URL);
    u.pathname = `/${dbName}`;
    store = openPostgresStore(u.toString(), 60_000, 4);
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    const c = admin();
    await c.connect();
    await c.query(`drop database if exists ${dbName}`);
    await c.end();
  });

  it('lists, counts and keeps open a batch whose ids hold "aa"', async () => {
    const now = Date.UTC(2026, 10, 25);
    // Four ids of one millisecond whose counters run 7a9f, 7aa0, 7aa1, 7ab2: in Danish order "aa" sorts after "ab".
    const ids = ['7a9f', '7aa0', '7aa1', '7ab2'].map((c) => `01a2b3c4-d5e6-${c}-8000-${'0'.repeat(12)}`);
    const batch = {
      id: '01a2b3c4-d5e6-7000-8000-000000000001',
      size: 4,
      webhookUrl: null,
      createdAt: now,
      accountId: 'default',
    };
    const tasks: NewTask[] = ids.map((id, index) => ({
      id,
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `p${index}` },
      priority: 1,
      idempotencyKey: null,
      accountId: 'default',
      webhookUrl: null,
      country: 'US',
      maxAttempts: 3,
      creditsToCharge: 1,
      createdAt: now,
      batch: { id: batch.id, index },
    }));
    await store.tasks.insert({ tasks, notBefore: 0, batch });
    const b = await store.batches.get({ id: batch.id, accountId: 'default', notBefore: 0 });
    expect(b?.counts.QUEUED).toBe(4);
    expect(b && (await store.batches.items({ batch: b, after: -1, limit: 10 })).map((x) => x.taskId)).toEqual(ids);
    expect(await store.batches.complete({ now, notBefore: 0, limit: 10, webhookOf: () => null })).toEqual([]);
  });
});
