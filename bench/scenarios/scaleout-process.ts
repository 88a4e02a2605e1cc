import { createApp } from '../../src/app.js';
import { loadSettings } from '../../src/config/settings.js';
import { EngineRegistry } from '../../src/engines/registry.js';
import { createLogger } from '../../src/ops/logger.js';
import { attemptLog, noopAdapter } from '../service.js';
import { completedCount } from './dispatch.js';

/**
 * One service process of the scale-out scenario (bench/scenarios/scaleout.ts), started by it as
 * `node --import tsx bench/scenarios/scaleout-process.ts` with an IPC channel. It is `aeq serve`
 * (src/cli/commands/service.ts: settings from the environment, AEQ_ROLE, DATABASE_URL, AEQ_CONFIG)
 * with the bench's no-op engine adapter in place of the real engines, which only a process of its own
 * can register.
 *
 * Messages to the parent: `ready` (with the URL of an API process) once it listens; from a worker, its
 * count of tasks COMPLETED (its own counter, bumped after the store's write) whenever it changed, at
 * most every COUNT_EVERY_MS; and, asked with `report`, the attempts the no-op adapter ran.
 */

/** How often a worker tells the parent its count: no store query, one small IPC message. */
const COUNT_EVERY_MS = 20;

export type ToParent =
  | { type: 'ready'; url: string }
  | { type: 'completed'; n: number }
  | { type: 'report'; calls: number; ids: string[]; claims: number; emptyClaims: number };

export type ToChild = { type: 'report' };

const send = (m: ToParent) => process.send?.(m);
const settings = loadSettings();
const log = createLogger(settings.logLevel);
const seen = attemptLog();
// The recovery scenario's tasks take BENCH_NOOP_DELAY_MS on average (uniform from half to one and a half times it,
// so that completions, and so deliveries, are spread out rather than in waves), so that a worker holds many at once.
const meanDelayMs = Number(process.env.BENCH_NOOP_DELAY_MS ?? 0) || 0;
const registry = new EngineRegistry().register(
  noopAdapter(seen, meanDelayMs > 0 ? () => meanDelayMs * (0.5 + Math.random()) : undefined),
);
const app = await createApp(settings, { log, registry });
const url = await app.listen();

let last = -1;
const counter =
  settings.role === 'api'
    ? null
    : setInterval(() => {
        void completedCount(app).then((n) => {
          if (n === last) return;
          last = n;
          send({ type: 'completed', n });
        });
      }, COUNT_EVERY_MS);

process.on('message', (m: ToChild) => {
  if (m.type !== 'report') return;
  void app.metrics.claims.get().then((c) => {
    const claims = c.values.reduce((a, v) => a + v.value, 0);
    const emptyClaims = c.values.filter((v) => v.labels.outcome === 'empty').reduce((a, v) => a + v.value, 0);
    send({ type: 'report', calls: seen.calls, ids: [...seen.started.keys()], claims, emptyClaims });
  });
});

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  if (counter) clearInterval(counter);
  app
    .stop(1000)
    .then(() => process.exit(0))
    .catch((e: unknown) => {
      log.error({ err: e }, 'shutdown failed');
      process.exit(1);
    });
};
process.on('SIGTERM', shutdown);
// The bench went away (or closed the channel): do not outlive it.
process.on('disconnect', shutdown);
send({ type: 'ready', url });
