import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { killChild, spawnService, type ChildService } from '../helpers/child-service.js';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { tempDir, writeConfig } from '../helpers/service.js';

const skip = privatePostgresUnavailable();
if (skip) console.warn(`[scale tests] skipped: ${skip}`);

/** Engines of the run with their concurrency across all workers. */
const CONCURRENCY = { ANSWER_ENGINE_A: 6, CHATBOT_A: 8, SEARCH_C_SEARCH: 5, ASSISTANT_A: 4 } as const;
/** An engine with one slot across every worker, to observe the claim order. */
const ORDERED_ENGINE = 'SEARCH_B_SERP';
const TOTAL = 2000;
const INTERNAL = 'internal-token-scale';

/**
 * Two API processes and three worker processes on one PostgreSQL, sharing one simulator: a few
 * thousand tasks across engines, submitted through both APIs, each completes exactly once, with
 * per-engine concurrency and one conversation per account holding across processes.
 */
describe.skipIf(skip !== null)('several API and worker processes on PostgreSQL', () => {
  let pgsrv: PrivatePostgres;
  let sim: Simulator;
  let receiver: Receiver;
  const apis: ChildService[] = [];
  const workers: ChildService[] = [];

  beforeAll(async () => {
    pgsrv = await startPrivatePostgres();
    sim = await startSimulator();
    receiver = await startReceiver();
    const config = writeConfig(tempDir(), {
      // Waits for an account or an exit address, and task leases, long enough for a machine whose two cores are shared
      // with the rest of the suite: seen failing 2 of 2,000 tasks there with 5 s (twice in one day, at the parent
      // commit too), and never alone. This test is about exactly-once across processes, not about pool timeouts.
      scheduler: {
        leaseMs: 15_000,
        heartbeatMs: 1000,
        pollMs: 100,
        retryBaseMs: 20,
        retryMaxMs: 100,
        poolWaitMs: 60_000,
      },
      engines: {
        ...Object.fromEntries(Object.entries(CONCURRENCY).map(([t, c]) => [t, { concurrency: c }])),
        [ORDERED_ENGINE]: { concurrency: 1 },
      },
    });
    const env = {
      DATABASE_URL: pgsrv.url,
      AEQ_SANDBOX_URL: sim.url,
      AEQ_CONFIG: config,
      AEQ_LOG_LEVEL: 'warn',
      AEQ_PG_POOL_MAX: '5',
      AEQ_INTERNAL_TOKEN: INTERNAL,
      // Accounts added at run time are sealed in the store: every process gets the same sealing key.
      AEQ_SECRETS_KEY: 'secrets-key-of-the-multi-process-test-0123',
    };
    // Start one process first so migrations are applied once, then the rest together.
    apis.push(await spawnService({ ...env, AEQ_ROLE: 'api', AEQ_LOG_LEVEL: 'info' }, 90_000));
    const rest = await Promise.all([
      spawnService({ ...env, AEQ_ROLE: 'api', AEQ_LOG_LEVEL: 'info' }, 90_000),
      ...[0, 1, 2].map(() => spawnService({ ...env, AEQ_ROLE: 'worker', AEQ_LOG_LEVEL: 'info' }, 90_000)),
    ]);
    apis.push(rest[0]!);
    workers.push(...rest.slice(1));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((c) => killChild(c, 'SIGTERM')));
    await receiver?.close();
    await sim?.close();
    await pgsrv?.stop();
  });

  it('completes every task exactly once within the engines’ limits', async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
    const engines = Object.keys(CONCURRENCY);
    const ids: string[] = [];
    for (let b = 0; b < TOTAL / 500; b++) {
      const items = Array.from({ length: 500 }, (_, i) => {
        const n = b * 500 + i;
        const taskType = engines[n % engines.length]!;
        const country = taskType === 'CHATBOT_A' ? (n % 3 === 0 ? 'KR' : 'US') : undefined;
        return {
          taskType,
          payload: { prompt: `scale task ${n} sandbox:delay=15`, ...(country ? { country } : {}) },
          webhook: { url: receiver.url },
        };
      });
      const api = apis[b % 2]!;
      const r = await api.call('POST', '/v1/async/task/batch', items);
      expect(r.status).toBe(200);
      expect(r.body.summary.failed).toBe(0);
      for (const x of r.body.results) ids.push(x.task.id);
    }
    expect(new Set(ids).size).toBe(TOTAL);

    const deadline = Date.now() + 240_000;
    for (;;) {
      const s = await apis[0]!.call('GET', '/stats');
      const t = s.body.tasks;
      if (t.COMPLETED + t.FAILED === TOTAL) break;
      if (Date.now() > deadline) throw new Error(`not done: ${JSON.stringify(t)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const [s0, s1] = await Promise.all(apis.map((a) => a.call('GET', '/stats')));
    // One aggregate over the shared store: every API process reports the same figures.
    expect(s0!.body.tasks).toEqual(s1!.body.tasks);
    // A failure says why (a task's error), not only that the counts differ.
    const since = new Date(Date.now() - 3600_000).toISOString();
    const failed = s0!.body.tasks.FAILED
      ? (await apis[0]!.call('GET', `/v1/async/tasks?since=${since}&status=FAILED&include=result&limit=20`)).body.tasks
      : [];
    expect(s0!.body.tasks, JSON.stringify(failed.map((t: { error?: string }) => t.error))).toEqual({
      QUEUED: 0,
      PROCESSING: 0,
      COMPLETED: TOTAL,
      FAILED: 0,
    });

    // Every task's webhook arrives exactly once.
    await receiver.waitUntil((all) => all.length >= TOTAL, 60_000, 'every webhook');
    const perTask = new Map<string, number>();
    for (const req of receiver.received) {
      const id = (req.body as { task: { id: string } }).task.id;
      perTask.set(id, (perTask.get(id) ?? 0) + 1);
    }
    expect(perTask.size).toBe(TOTAL);
    expect([...perTask.values()].every((n) => n === 1)).toBe(true);

    // Concurrency per engine and one conversation per account, across the three workers.
    const stats = (await (await fetch(`${sim.url}/__sim/stats`)).json()) as {
      families: Record<string, { max: number }>;
      credentials: Record<string, { max: number }>;
    };
    expect(stats.families.perplexity!.max).toBeLessThanOrEqual(CONCURRENCY.ANSWER_ENGINE_A);
    expect(stats.families.bing!.max).toBeLessThanOrEqual(CONCURRENCY.SEARCH_C_SEARCH);
    expect(stats.families.gemini!.max).toBeLessThanOrEqual(CONCURRENCY.ASSISTANT_A);
    expect(stats.families.openai!.max).toBeLessThanOrEqual(CONCURRENCY.CHATBOT_A);
    const accountPeaks = Object.entries(stats.credentials).filter(([k]) => k.startsWith('openai:'));
    expect(accountPeaks.length).toBe(6);
    for (const [, g] of accountPeaks) expect(g.max).toBe(1);
  }, 360_000);

  it('serves higher priority first across processes', async () => {
    // One batch commits at once, so every worker sees the whole queue when it claims.
    const low = Array.from({ length: 12 }, (_, i) => ({
      taskType: ORDERED_ENGINE,
      priority: 1,
      payload: { query: `low ${i} sandbox:delay=30` },
    }));
    const high = Array.from({ length: 4 }, (_, i) => ({
      taskType: ORDERED_ENGINE,
      priority: 9,
      payload: { query: `high ${i} sandbox:delay=30` },
    }));
    const r = await apis[1]!.call('POST', '/v1/async/task/batch', [...low, ...high]);
    expect(r.body.summary.succeeded).toBe(16);
    const ids: string[] = r.body.results.map((x: { task: { id: string } }) => x.task.id);
    const highIds = new Set(ids.slice(12));
    const db = new pg.Client({ connectionString: pgsrv.url });
    await db.connect();
    try {
      const deadline = Date.now() + 60_000;
      let rows: Array<{ id: string; finished_at: string | null }> = [];
      for (;;) {
        rows = (await db.query('select id, finished_at from tasks where id = any($1) order by finished_at', [ids]))
          .rows;
        if (rows.every((x) => x.finished_at !== null)) break;
        if (Date.now() > deadline) throw new Error('ordered tasks not finished');
        await new Promise((res) => setTimeout(res, 200));
      }
      const order = rows.map((x) => (highIds.has(x.id) ? 'H' : 'L')).join('');
      expect(order).toBe('HHHHLLLLLLLLLLLL');
    } finally {
      await db.end();
    }
  }, 120_000);

  it('applies operator changes made through one API process in every process', async () => {
    const internal = async (api: ChildService, method: string, p: string, body?: unknown) => {
      const res = await fetch(api.url + p, {
        method,
        headers: {
          authorization: `Bearer ${INTERNAL}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const submitKr = () =>
      apis[1]!.call('POST', '/v1/async/task', {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'op change', country: 'KR' },
      });
    const eventually = async (check: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 15_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`not applied: ${what}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    // Disabling both KR accounts through API 0 makes API 1 refuse KR.
    for (const id of ['sandbox-chatbot-a-kr-1', 'sandbox-chatbot-a-kr-2']) {
      expect((await internal(apis[0]!, 'POST', `/internal/pools/accounts/${id}/disable`)).status).toBe(200);
    }
    await eventually(async () => (await submitKr()).status === 422, 'KR refused on the other API process');
    // An account added through API 0 (secret sealed in the store) serves KR tasks on the workers.
    const added = await internal(apis[0]!, 'POST', '/internal/pools/accounts', {
      id: 'kr-added',
      engine: 'CHATBOT_A',
      country: 'KR',
      secret: 'sk-added-at-run-time',
    });
    expect(added.status).toBe(201);
    let accepted: any;
    await eventually(async () => {
      accepted = await submitKr();
      return accepted.status === 202;
    }, 'KR accepted again');
    // Both API processes report the same capacity for KR (one account enabled of three).
    await eventually(async () => {
      const [c0, c1] = await Promise.all(apis.map((a) => a.call('GET', '/capacity')));
      const kr = (c: any) => JSON.stringify(c.body.chatbot_a.countries.KR);
      return kr(c0) === kr(c1) && c0!.body.chatbot_a.countries.KR.accounts === 1;
    }, 'same capacity on both API processes');
    const db = new pg.Client({ connectionString: pgsrv.url });
    await db.connect();
    try {
      const stored = (await db.query("select state from runtime_changes where key = 'account:kr-added'")).rows[0] as {
        state: string;
      };
      expect(stored.state).not.toContain('sk-added-at-run-time');
      await eventually(async () => {
        const r = await apis[0]!.call('GET', `/v1/async/task/${accepted.body.task.id}`);
        return r.body.task.status === 'COMPLETED';
      }, 'KR task completed with the added account');
      // Pausing an engine through API 1 stops every worker from claiming it.
      expect((await internal(apis[1]!, 'POST', '/internal/engines/ASSISTANT_A/pause')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 2500));
      const q = await apis[0]!.call('POST', '/v1/async/task', {
        taskType: 'ASSISTANT_A',
        payload: { prompt: 'paused engine' },
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect((await apis[0]!.call('GET', `/v1/async/task/${q.body.task.id}`)).body.task.status).toBe('QUEUED');
      expect((await internal(apis[0]!, 'POST', '/internal/engines/ASSISTANT_A/resume')).status).toBe(200);
      await eventually(
        async () => (await apis[0]!.call('GET', `/v1/async/task/${q.body.task.id}`)).body.task.status === 'COMPLETED',
        'resumed engine runs',
      );
    } finally {
      await db.end();
    }
  }, 120_000);
});
