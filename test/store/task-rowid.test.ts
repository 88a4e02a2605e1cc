import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newTaskId, taskIdKey } from '../../src/domain/task-id.js';
import type { NewTask } from '../../src/domain/task.js';
import type { Store } from '../../src/store/store.js';
import { openTestStore } from '../helpers/stores.js';

const T0 = 1_800_000_000_000;

function task(id: string, over: Partial<NewTask> = {}): NewTask {
  return {
    id,
    taskType: 'SEARCH_A',
    payload: { query: 'q' },
    priority: 1,
    idempotencyKey: null,
    accountId: 'default',
    webhookUrl: null,
    country: null,
    maxAttempts: 3,
    creditsToCharge: 1,
    createdAt: T0,
    ...over,
  };
}

describe('task id keys', () => {
  it(
    'count the ids of one millisecond in the 12 bits after the version, ' +
      'so keys are distinct and ordered like the ids',
    () => {
      const ms = T0 + 123_456; // a millisecond no other test uses, so its count starts fresh
      const ids = Array.from({ length: 2_000 }, () => newTaskId(ms));
      const keys = ids.map((id) => taskIdKey(id) as number);
      for (let i = 1; i < ids.length; i++) {
        expect(keys[i]).toBe(keys[i - 1]! + 1);
        expect(ids[i]! > ids[i - 1]!).toBe(true);
      }
      expect(Math.floor(keys[0]! / 4096)).toBe(ms);
      const next = taskIdKey(newTaskId(ms + 1)) as number;
      expect(next > keys.at(-1)!).toBe(true);
    },
  );

  it('go on into the next millisecond when one runs out of counts, so a bulk load keeps distinct, ordered keys', () => {
    const ms = T0 + 234_567;
    const ids = Array.from({ length: 10_000 }, () => newTaskId(ms));
    const keys = ids.map((id) => taskIdKey(id) as number);
    for (let i = 1; i < keys.length; i++) expect(keys[i]! > keys[i - 1]!).toBe(true);
    const msOf = (id: string) => Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    const idMs = ids.map(msOf);
    expect(idMs[0]).toBe(ms);
    expect(Math.max(...idMs)).toBeLessThanOrEqual(ms + 4);
    // The clock catching up with a millisecond the count ran into goes on counting there.
    const caughtUp = newTaskId(ms + 1);
    expect(caughtUp > ids.at(-1)!).toBe(true);
    // A clock that steps back starts over at its own millisecond.
    expect(msOf(newTaskId(ms - 5))).toBe(ms - 5);
  });

  it('are null for ids that are not version 7, and a bigint once the integer would pass 2^53', () => {
    expect(taskIdKey(randomUUID())).toBeNull();
    expect(taskIdKey('not-an-id')).toBeNull();
    const late = taskIdKey('ffffffff-ffff-7abc-8000-000000000000');
    expect(late).toBe((0xffffffffffffn << 12n) | 0xabcn);
  });
});

describe('embedded store rows keyed by the task id', () => {
  let store: Store;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ store, close } = await openTestStore('sqlite'));
  });
  afterEach(() => close());

  const rowidOf = async (id: string) =>
    (await sql<{ rowid: number | bigint }>`select rowid from tasks where id = ${id}`.execute(store.db)).rows[0]?.rowid;

  it("stores a v7 task under its id's key, and finds it by that key", async () => {
    const id = newTaskId(T0);
    await store.tasks.insert({ tasks: [task(id)] });
    expect(await rowidOf(id)).toBe(taskIdKey(id));
    expect(await store.tasks.poll({ id, notBefore: 0 })).toMatchObject({ id, status: 'QUEUED' });
    expect(await store.tasks.get({ id, notBefore: 0 })).toMatchObject({
      id,
      status: 'QUEUED',
      payload: { query: 'q' },
    });
  });

  it('gives a task whose key another row holds a rowid of its own, and still finds both', async () => {
    const first = newTaskId(T0);
    // Same time and counter (as after a clock step back), different random tail.
    const second = `${first.slice(0, 19)}${randomUUID().slice(19)}`;
    expect(taskIdKey(second)).toBe(taskIdKey(first));
    const out = await store.tasks.insert({ tasks: [task(first), task(second)] });
    expect(out.map((o) => o.ok)).toEqual([true, true]);
    expect(await rowidOf(first)).toBe(taskIdKey(first));
    expect(await rowidOf(second)).not.toBe(taskIdKey(second));
    expect((await store.tasks.poll({ id: second, notBefore: 0 }))?.id).toBe(second);
    expect((await store.tasks.get({ id: second, notBefore: 0 }))?.id).toBe(second);
    expect((await store.tasks.poll({ id: first, notBefore: 0 }))?.id).toBe(first);
  });

  it(
    'finds tasks whose rowid is not their key (older ids, ' +
      'rows renumbered by VACUUM), and hides expired ones either way',
    async () => {
      const v4 = randomUUID();
      const moved = newTaskId(T0);
      const old = newTaskId(T0 - 10_000);
      await store.tasks.insert({ tasks: [task(v4), task(moved), task(old, { createdAt: T0 - 10_000 })] });
      await sql`update tasks set rowid = 7 where id = ${moved}`.execute(store.db);
      expect((await store.tasks.poll({ id: v4, notBefore: 0 }))?.id).toBe(v4);
      expect((await store.tasks.poll({ id: moved, notBefore: 0 }))?.id).toBe(moved);
      expect((await store.tasks.get({ id: moved, notBefore: 0 }))?.id).toBe(moved);
      expect(await store.tasks.poll({ id: old, notBefore: T0 - 5_000 })).toBeUndefined();
      expect(await store.tasks.get({ id: old, notBefore: T0 - 5_000 })).toBeUndefined();
      expect(await store.tasks.poll({ id: newTaskId(T0), notBefore: 0 })).toBeUndefined();
    },
  );

  it('keeps the idempotency rule when the key is taken: a duplicate is refused, not given another rowid', async () => {
    const a = newTaskId(T0);
    const b = `${a.slice(0, 19)}${randomUUID().slice(19)}`;
    const out = await store.tasks.insert({
      tasks: [task(a, { idempotencyKey: 'k' }), task(b, { idempotencyKey: 'k' })],
    });
    expect(out[0]?.ok).toBe(true);
    expect(out[1]).toEqual({ ok: false, reason: 'DUPLICATE_KEY', existingId: a });
  });
});
