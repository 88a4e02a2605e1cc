import { afterAll, describe, expect, it } from 'vitest';
import {
  deliverDue,
  fastConfig,
  startService,
  steppedClock,
  submit,
  tempDir,
  waitTerminal,
} from '../helpers/service.js';
import { startReceiver } from '../helpers/receiver.js';
import { deliveryAttempts, deliveryRow } from '../helpers/store-inspect.js';

/** The default retry base (2 minutes); both services share one stepped clock. */
const BASE_MS = 120_000;

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
    const env = { AEQ_DATA_DIR: dataDir, AEQ_CONFIG: fastConfig(tempDir()) };
    const clock = steppedClock();

    const first = await startService(env, { clock });
    const id = await submit(first, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'survive restart' },
      webhook: { url: `${hooks.url}/h` },
    });
    await waitTerminal(first, id);
    // The first attempt fails and its retry is scheduled; then the service stops.
    await deliverDue(first);
    expect(hooks.received).toHaveLength(1);
    const pending = await deliveryRow(first, id);
    expect(pending?.status).toBe('PENDING');
    expect(pending?.attempts).toBe(1);
    expect(Number(pending?.next_attempt_at)).toBe(clock.now() + BASE_MS);
    await first.stop();

    const second = await startService(env, { clock });
    cleanup.push(() => second.stop());
    // Not before its time in the new process either; then exactly when due.
    clock.advance(BASE_MS - 1);
    expect(await deliverDue(second)).toBe(0);
    expect(hooks.received).toHaveLength(1);
    clock.advance(1);
    await deliverDue(second);
    const row = await deliveryRow(second, id);
    expect(row?.status).toBe('DELIVERED');
    expect(row?.attempts).toBe(2);
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
