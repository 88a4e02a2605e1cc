import { afterAll, describe, expect, it } from 'vitest';
import { loadServiceConfig } from '../../../src/config/engine-config.js';
import { loadSettings } from '../../../src/config/settings.js';
import type { ClaimedTask } from '../../../src/domain/task.js';
import type { AttemptContext, EngineAdapter } from '../../../src/engines/adapter.js';
import { ParsePool } from '../../../src/engines/parse-pool/pool.js';
import { EngineRegistry } from '../../../src/engines/registry.js';
import { TransportFactory } from '../../../src/transport/transport-factory.js';
import { createLogger } from '../../../src/ops/logger.js';
import { Metrics } from '../../../src/ops/metrics.js';
import { Pools } from '../../../src/pools/pools.js';
import { AttemptRunner } from '../../../src/queue/attempt-runner.js';
import { tempDir, writeConfig } from '../../helpers/service.js';
import type { PARSERS as TEST_PARSERS } from './test-parsers.js';

type TestTable = typeof TEST_PARSERS;

/**
 * The attempt's own timeout reaches a parse in the pool: an adapter whose parse never ends fails
 * ENGINE_TIMEOUT at the engine's timeoutMs, and the thread that ran the parse is terminated.
 */
describe('an attempt whose parse runs too long', () => {
  const parser = new ParsePool<TestTable>({ threads: 1, parsersUrl: new URL('./test-parsers.ts', import.meta.url) });
  const transports = new TransportFactory({ allowPrivate: true, sandboxWebBase: null });
  afterAll(async () => {
    await parser.close();
    await transports.close();
  });

  it('fails ENGINE_TIMEOUT and its worker thread is stopped', async () => {
    const dir = tempDir();
    const settings = loadSettings({
      AEQ_DATA_DIR: dir,
      AEQ_CONFIG: writeConfig(dir, { engines: { WEB_SCRAPE: { mode: 'anon', timeoutMs: 1000 } } }),
    });
    const config = loadServiceConfig(settings);
    const flag = new Int32Array(new SharedArrayBuffer(12));
    const spinning: EngineAdapter = {
      taskType: 'WEB_SCRAPE',
      needsAccount: false,
      async run(ctx: AttemptContext) {
        // The context's `parse` names the service's parsers; this pool runs the test table.
        const parse = ctx.parse as unknown as (name: 'test.spin', input: Int32Array) => Promise<never>;
        return parse('test.spin', flag);
      },
    };
    // A warm thread, so the spin starts at once rather than while the thread is still loading.
    const warmThread = await parser.run('test.threadId', null);
    const runner = new AttemptRunner(
      config,
      new EngineRegistry().register(spinning),
      new Pools(config),
      transports,
      new Metrics(),
      null,
      parser as unknown as ParsePool,
    );
    const task: ClaimedTask = {
      id: 'task-1',
      taskType: 'WEB_SCRAPE',
      payload: {},
      priority: 1,
      idempotencyKey: null,
      accountId: 'default',
      webhookUrl: null,
      country: null,
      maxAttempts: 1,
      creditsToCharge: 1,
      createdAt: Date.now(),
      attempts: 1,
      leaseToken: 'lease',
      leaseExpiresAt: Date.now() + 60_000,
    };
    const outcome = await runner.run(task, createLogger('silent'), new AbortController().signal);
    expect(outcome).toMatchObject({ kind: 'failed', code: 'ENGINE_TIMEOUT' });
    expect(Atomics.load(flag, 0)).toBe(1); // the parse did start
    expect(Atomics.load(flag, 1)).toBe(warmThread);
    // One thread at most: this runs only because the spinning thread was terminated and replaced.
    expect(await parser.run('test.threadId', null)).not.toBe(warmThread);
  });
});
