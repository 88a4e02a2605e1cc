import { afterAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, submit, tempDir, waitTerminal } from '../helpers/service.js';
import { startReceiver } from '../helpers/receiver.js';
import { deliveryAttempts, deliveryRow, settledDelivery } from '../helpers/store-inspect.js';

describe('pending webhook attempts survive a restart', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('a retry scheduled before the service stops is made by the next service on the same data dir', async () => {
    // Fail once, then acknowledge.
    const hooks = await startReceiver((r) => (r.n === 1 ? 503 : 200));
    cleanup.push(() => hooks.close());
    const dataDir = tempDir();
    const env = { AEQ_DATA_DIR: dataDir, AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_RETRY_BASE_MS: '1500' };

    const first = await startService(env);
    const id = await submit(first, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'survive restart' }, webhook: { url: `${hooks.url}/h` } });
    await waitTerminal(first, id);
    await hooks.waitUntil((all) => all.length === 1, 20_000, 'first attempt');
    // Wait until the failed first attempt is recorded and the retry is scheduled, then stop.
    for (;;) {
      const row = await deliveryRow(first, id);
      if (row?.status === 'PENDING' && row.attempts === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await first.stop();
    expect(hooks.received).toHaveLength(1);

    const second = await startService(env);
    cleanup.push(() => second.stop());
    const row = await settledDelivery(second, id);
    expect(row.status).toBe('DELIVERED');
    expect(row.attempts).toBe(2);
    expect(hooks.received.map((r) => r.answered)).toEqual([503, 200]);
    expect(hooks.received[1]?.body.task.id).toBe(id);
    expect((await deliveryAttempts(second, id)).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'retry'],
      [2, 'delivered'],
    ]);
    // The task itself is unchanged by the restart.
    const view = await second.call('GET', `/v1/async/task/${id}`);
    expect(view.body.task.status).toBe('COMPLETED');
  });
});
