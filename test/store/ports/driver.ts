import { afterEach, beforeEach, describe } from 'vitest';
import type { NewTask } from '../../../src/domain/task.js';
import { newTaskId } from '../../../src/domain/task-id.js';
import type { ClaimRequest, TerminalWrite } from '../../../src/store/ports.js';
import type { Store } from '../../../src/store/store.js';
import { openTestStore, postgresUnavailableReason, type StoreKind } from '../../helpers/stores.js';

/*
 * One behaviour suite, every store: each port's tests are written once and run against a fresh, migrated store of
 * each kind (as pg-boss and River run one suite against every driver). PostgreSQL is left out, with the reason
 * printed, when its server does not answer.
 */

const pgSkip = await postgresUnavailableReason();
if (pgSkip) console.warn(`[store tests] PostgreSQL tests skipped: ${pgSkip}`);

export const STORE_KINDS: readonly StoreKind[] = ['sqlite', 'postgres'];

/** The store a test of the suite runs on (fresh for each test). */
export interface StoreUnderTest {
  readonly store: Store;
}

/** `body` once per store kind, in a describe of its own, each test on a fresh store of that kind. */
export function forEachStore(title: string, body: (s: StoreUnderTest, kind: StoreKind) => void): void {
  for (const kind of STORE_KINDS) {
    describe.skipIf(kind === 'postgres' && pgSkip !== null)(`${title} (${kind})`, () => {
      let opened: { store: Store; close: () => Promise<void> } | null = null;
      const s: StoreUnderTest = {
        get store() {
          if (!opened) throw new Error('no store open outside a test');
          return opened.store;
        },
      };
      beforeEach(async () => {
        opened = await openTestStore(kind);
      });
      afterEach(async () => {
        await opened?.close();
        opened = null;
      });
      body(s, kind);
    });
  }
}

/** A time well after any test's clock: ids and times are built from it. */
export const T0 = 1_800_000_000_000;

/** A new task as the submit path makes one: its id is a time-ordered id of its creation time (domain/task-id.ts). */
export function task(over: Partial<NewTask> = {}): NewTask {
  return {
    id: newTaskId(over.createdAt ?? T0),
    taskType: 'ANSWER_ENGINE_A',
    payload: { prompt: 'p' },
    priority: 1,
    idempotencyKey: null,
    accountId: 'default',
    webhookUrl: null,
    country: null,
    maxAttempts: 3,
    creditsToCharge: 2,
    createdAt: T0,
    ...over,
  };
}

export const completed = (webhook: TerminalWrite['webhook'] = null): TerminalWrite => ({
  status: 'COMPLETED',
  result: { text: 'ok' },
  error: null,
  creditsToCharge: 2,
  creditsCharged: 2,
  webhook,
});

export const claimArgs = (over: Partial<ClaimRequest> = {}): ClaimRequest => ({
  taskType: 'ANSWER_ENGINE_A',
  limit: 10,
  concurrency: 10,
  workerId: 'w1',
  now: T0 + 1000,
  leaseMs: 30_000,
  ...over,
});
