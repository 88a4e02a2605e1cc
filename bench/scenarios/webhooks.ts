import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { figure, type BenchConfig, type Integrity, type ScenarioResult } from '../figures.js';
import { startCountingReceiver, type CountingReceiver } from '../receiver.js';
import { median } from '../stats.js';
import { startBenchService } from '../service.js';
import { createLogger } from '../../src/ops/logger.js';
import { WebhookSender } from '../../src/webhooks/sender.js';
import { AccountSecrets } from '../../src/webhooks/account-secrets.js';
import { submitAll, waitCompleted } from './dispatch.js';

/** Same concurrency as the service's sender (src/app.ts). */
const SENDER_CONCURRENCY = 64;

/** Baseline: plain undici POSTs of the same size to the same receiver, 64 in flight, no store. */
async function plainPosts(receiver: CountingReceiver, n: number, payload: string): Promise<number> {
  const agent = new Agent({ connections: 128 });
  const u = new URL(receiver.url);
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const res = await agent.request({
        origin: u.origin,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: payload.replace('__ID__', `plain-${i}`),
      });
      await res.body.dump();
    }
  };
  await Promise.all(Array.from({ length: SENDER_CONCURRENCY }, lane));
  const rate = n / ((performance.now() - t0) / 1000);
  await agent.close();
  return rate;
}

/** One secret, as a receiver would configure it (AEQ_WEBHOOK_SECRET); signing cost does not depend on its value. */
const BENCH_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/**
 * One measured delivery run: N completed tasks leave N deliveries in the outbox while the service's own sender is
 * stopped; then a fresh WebhookSender (the service's class, on the same store, signing with `secrets` when given)
 * delivers them all.
 */
async function deliveryRun(
  cfg: BenchConfig,
  receiver: CountingReceiver,
  label: string,
  secrets: string[],
  log: (s: string) => void,
): Promise<{ rate: number; integrity: Integrity }> {
  const n = cfg.webhookDeliveries;
  const svc = await startBenchService({ noopConcurrency: cfg.noopConcurrency });
  try {
    const own = svc.app.webhooks;
    if (!own) throw new Error('the bench service has no webhook sender');
    await own.stop();
    log(`${label}: ${n} tasks to the outbox`);
    await (await submitAll(svc.url, n, { webhook: { url: receiver.url } }))();
    await waitCompleted(svc.app, n, 120_000 + n * 5);
    receiver.reset();
    const sender = new WebhookSender(
      svc.app.store.outbox,
      {
        retryBaseMs: 120_000,
        timeoutMs: 30_000,
        allowPrivate: true,
        concurrency: SENDER_CONCURRENCY,
        pollMs: 500,
        // The bench's tasks are the default account's: its configured secrets sign, as AEQ_WEBHOOK_SECRET does.
        ...(secrets.length > 0
          ? {
              signing: new AccountSecrets(svc.app.store.webhookSecrets, {
                configured: secrets,
                sealingKey: null,
                now: Date.now,
              }),
            }
          : {}),
      },
      svc.app.metrics,
      createLogger('silent'),
    );
    const t0 = performance.now();
    sender.start();
    await receiver.waitFor(n, 60_000 + n * 5);
    await sender.idle();
    const rate = n / ((performance.now() - t0) / 1000);
    await sender.stop();
    const stats = await svc.app.store.figures.stats({ notBefore: 0 });
    return {
      rate,
      integrity: {
        scenario: label,
        expected: n,
        observed: stats.webhooks.delivered,
        failedRequests: stats.webhooks.abandoned,
        lost: n - receiver.unique(),
        duplicates: receiver.duplicates(),
      },
    };
  } finally {
    await svc.stop();
  }
}

/**
 * Webhooks: the outbox drained by the service's sender, unsigned and signed (Standard Webhooks, one secret), each
 * run against plain undici POSTs of the same size to the same receiver.
 */
export async function runWebhookScenario(cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const n = cfg.webhookDeliveries;
  const receiver = await startCountingReceiver();
  const rates: number[] = [];
  const signedRates: number[] = [];
  const plain: number[] = [];
  const integrity: Integrity[] = [];
  try {
    for (let run = 0; run < cfg.dispatchRuns; run++) {
      const unsigned = await deliveryRun(cfg, receiver, `webhooks run ${run + 1} (unsigned)`, [], log);
      rates.push(unsigned.rate);
      integrity.push(unsigned.integrity);
      const signed = await deliveryRun(cfg, receiver, `webhooks run ${run + 1} (signed)`, [BENCH_SECRET], log);
      signedRates.push(signed.rate);
      integrity.push(signed.integrity);
      receiver.reset();
      plain.push(
        await plainPosts(
          receiver,
          n,
          JSON.stringify({
            task: { id: '__ID__', status: 'COMPLETED' },
            credits: { creditsToCharge: 1, creditsCharged: 1 },
            response: { text: '' },
          }),
        ),
      );
    }
  } finally {
    await receiver.close();
  }
  return {
    figures: [
      figure({
        scenario: `webhooks (${n.toLocaleString('en-US')} deliveries)`,
        metric: 'deliveries/s',
        unit: 'deliveries/s',
        runs: rates,
        baseline: { name: 'plain undici POSTs', value: median(plain) },
        target: { op: '>=', value: 3_000, unit: 'deliveries/s' },
      }),
      figure({
        scenario: `webhooks, signed (${n.toLocaleString('en-US')} deliveries)`,
        metric: 'deliveries/s',
        unit: 'deliveries/s',
        runs: signedRates,
        baseline: { name: 'the same, unsigned', value: median(rates) },
        target: { op: '>=', value: 3_000, unit: 'deliveries/s' },
      }),
    ],
    integrity,
  };
}
