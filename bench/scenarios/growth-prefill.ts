import { sql } from 'kysely';
import { newTaskId } from '../../src/domain/task-id.js';
import type { NewTask } from '../../src/domain/task.js';
import type { TaskType } from '../../src/domain/task-types.js';
import { taskErrorString } from '../../src/domain/engine-errors.js';
import type { Store } from '../../src/store/store.js';

const CHUNK = 5_000;
/** Created-at spread: the last 23 hours, so nothing reaches the 24-hour retention during the run. */
const SPREAD_MS = 23 * 3_600_000;
/** Stands for the task id in a result template; SQLite replaces it per row, so every result differs. */
const ID_MARK = '__TASK_ID__';

const ENGINES: readonly TaskType[] = [
  'SEARCH_A',
  'AIMODE',
  'SEARCH_B_AI_BRIEF',
  'SEARCH_C_SEARCH',
  'FORUM',
  'WEB_SCRAPE',
  'CHATBOT_A',
];
const TOPICS = [
  'trail running shoes',
  'crm for startups',
  '노트북 추천',
  'cheap flights to lisbon',
  'mechanical keyboards',
  'garden tools',
  'budget espresso machines',
];
const COUNTRIES = ['US', 'GB', 'DE', 'KR', 'FR'];

/**
 * Keeps a uniform random sample of every id seen (reservoir sampling), so that 1,000,000 ids are never held at once.
 */
export class IdSample {
  readonly ids: string[] = [];
  private seen = 0;

  constructor(private readonly size: number) {}

  add(id: string): void {
    this.seen++;
    if (this.ids.length < this.size) this.ids.push(id);
    else {
      const j = Math.floor(Math.random() * this.seen);
      if (j < this.size) this.ids[j] = id;
    }
  }
}

/** A completed answer of about 1-2 KB, shaped like the engines' client response (text, markdown, sources). */
function resultTemplate(engine: TaskType, variant: number): string {
  const topic = TOPICS[variant % TOPICS.length]!;
  const sources = Array.from({ length: 3 + (variant % 4) }, (_, k) => ({
    url: `https://www.review-site-${k}.example/${encodeURIComponent(topic)}/${ID_MARK}`,
    title: `The ${k + 3} best ${topic} of the year, tested`,
    snippet: `We compared ${topic} on price, durability and comfort over six weeks of daily use.`,
  }));
  const text =
    `For ${topic}, most reviewers agree on three picks (${engine}, answer ${ID_MARK}). The first ` +
    `balances price and quality; the second is the durable choice; ` +
    `the third suits tight budgets. Check the return policy before buying.`;
  const markdown =
    `## ${topic}\n\n1. **First pick**: balances price and quality.\n2. **Second pick**: ` +
    `the durable choice.\n3. **Third pick**: ` +
    `suits tight budgets.\n\nSources: ${sources.map((s, k) => `[${k + 1}](${s.url})`).join(' ')}`;
  return JSON.stringify({ text, markdown, sources });
}

function newTask(i: number, createdAt: number): NewTask {
  const engine = ENGINES[i % ENGINES.length]!;
  const topic = TOPICS[(i >> 3) % TOPICS.length]!;
  const payload =
    engine === 'WEB_SCRAPE'
      ? { url: `https://example.com/articles/${i}` }
      : { prompt: `${topic} ${i}`, country: COUNTRIES[i % COUNTRIES.length]! };
  return {
    id: newTaskId(createdAt),
    taskType: engine,
    payload,
    priority: i % 10 === 0 ? 5 : 1,
    idempotencyKey: null,
    accountId: 'default',
    webhookUrl: null,
    country: COUNTRIES[i % COUNTRIES.length]!,
    maxAttempts: 3,
    creditsToCharge: 1,
    createdAt,
  };
}

export interface PrefillProgress {
  done: number;
  seconds: number;
}

/**
 * Writes `n` retained tasks in chunks of 5,000 (only one chunk is held at a time): about 70%
 * COMPLETED with a 1-2 KB result, 5% FAILED, the rest QUEUED, over 7 engines, created over the
 * last 23 hours. Every task is inserted through `store.insertTasks` (the service's own insert);
 * the terminal ones are then moved to COMPLETED / FAILED with one UPDATE per engine and chunk.
 * That UPDATE is a bench-only shortcut through the Kysely handle of the store: the store has no
 * bulk terminal write, and claim + finish one task at a time would take minutes at 1,000,000.
 */
export async function prefillRetained(
  store: Store,
  n: number,
  sample: IdSample,
  progress: (p: PrefillProgress) => void,
): Promise<void> {
  if (store.kind !== 'sqlite') throw new Error('growth prefill needs the embedded SQLite store');
  const db = store.db;
  const now = Date.now();
  const first = now - SPREAD_MS;
  const t0 = performance.now();
  for (let start = 0, chunkNo = 0; start < n; start += CHUNK, chunkNo++) {
    const chunk: NewTask[] = [];
    const completed = new Map<TaskType, string[]>();
    const failed: string[] = [];
    for (let i = start; i < Math.min(n, start + CHUNK); i++) {
      // Oldest first, evenly over the 23 hours, as a steady stream of submits would leave them.
      const t = newTask(i, Math.floor(first + (i / n) * SPREAD_MS));
      chunk.push(t);
      sample.add(t.id);
      const r = Math.random();
      if (r < 0.7) {
        const ids = completed.get(t.taskType) ?? [];
        ids.push(t.id);
        completed.set(t.taskType, ids);
      } else if (r < 0.75) failed.push(t.id);
    }
    await store.tasks.insert({ tasks: chunk });
    await db.transaction().execute(async (trx) => {
      for (const [engine, ids] of completed) {
        await trx
          .updateTable('tasks')
          .set({
            status: 'COMPLETED',
            result: sql<string>`replace(${resultTemplate(engine, chunkNo)}, ${ID_MARK}, id)`,
            attempts: 1,
            worker_id: 'bench-prefill',
            credits_charged: sql<number>`credits_to_charge`,
            finished_at: sql<number>`created_at + 20000`,
            updated_at: sql<number>`created_at + 20000`,
          })
          .where('id', 'in', ids)
          .execute();
      }
      if (failed.length > 0) {
        await trx
          .updateTable('tasks')
          .set({
            status: 'FAILED',
            error: taskErrorString('ENGINE_TIMEOUT'),
            attempts: 3,
            worker_id: 'bench-prefill',
            credits_charged: 0,
            finished_at: sql<number>`created_at + 600000`,
            updated_at: sql<number>`created_at + 600000`,
          })
          .where('id', 'in', failed)
          .execute();
      }
    });
    progress({ done: Math.min(n, start + CHUNK), seconds: (performance.now() - t0) / 1000 });
  }
}
