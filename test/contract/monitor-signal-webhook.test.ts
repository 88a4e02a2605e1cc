import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/client/src/webhooks.js';
import { runMonitorToEnd } from '../helpers/monitors.js';
import { signatureHeaders, startReceiver, type Receiver } from '../helpers/receiver.js';
import {
  deliverDue,
  fastConfig,
  startService,
  steppedClock,
  tempDir,
  type RunningService,
} from '../helpers/service.js';
import { until } from '../helpers/wait.js';

const DAY = 86_400_000;
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const PROMPTS = [
  'best running shoes for flat feet',
  'running shoes for beginners',
  'trail running shoes for wet rocks',
  'cushioned running shoes for long runs',
  'running shoes for wide feet',
  'lightweight running shoes for racing',
].map((p) => `${p} sandbox:shift=hoka:+60@2026-11-24:ASSISTANT_A`);

/**
 * A monitor's webhook receives a signed `monitor.signals` event after each run that raised new signals
 * (docs/contract.md, Monitors), queued in the transaction that ends the run; runs that raise none send nothing.
 * The monitor is run by hand once a day on a stepped clock; the sandbox's shift makes Hoka's mention rate on
 * ASSISTANT_A jump from 2026-11-24.
 */
describe("a monitor's signals as a webhook", () => {
  const clock = steppedClock(Date.UTC(2026, 10, 21, 10));
  let svc: RunningService;
  let hooks: Receiver;

  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_SECRET: SECRET }, { clock });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('posts the new signals of a run, signed, and nothing after runs without new ones', async () => {
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'signals to a webhook',
      prompts: PROMPTS,
      engines: ['ASSISTANT_A'],
      countries: ['US'],
      brand: { name: 'Hoka', domains: ['hoka.com'] },
      competitors: [{ name: 'Nike' }, { name: 'Brooks' }],
      webhook: { url: `${hooks.url}/signals` },
      schedule: { cron: '0 0 1 1 *' },
    });
    expect(created.status).toBe(201);
    const id = created.body.monitor.id as string;
    // Shown by its host only, as a task's webhook is: a URL may carry a token.
    expect(created.body.monitor.webhook).toEqual({ targetHost: new URL(hooks.url).host });
    expect(JSON.stringify(created.body)).not.toContain('/signals');

    const runIds: string[] = [];
    for (let day = 0; day < 5; day++) {
      await runMonitorToEnd(svc, id);
      runIds.push((await svc.call('GET', `/v1/monitors/${id}/runs?limit=1`)).body.runs[0].id);
      await deliverDue(svc);
      clock.advance(DAY);
    }
    // Runs of 11-21 to 11-23 have no baseline of three runs yet: nothing to tell.
    const signals = (await svc.call('GET', `/v1/monitors/${id}/signals`)).body.signals as any[];
    const firstRuns = new Set(signals.map((s) => s.firstSeen.runId));
    await until(
      'one event per run that raised signals',
      async () => hooks.received,
      (r) => r.length >= firstRuns.size,
    );
    expect(hooks.received).toHaveLength(firstRuns.size);
    const shiftRun = runIds[3];
    expect(firstRuns.has(shiftRun)).toBe(true);
    for (const r of hooks.received) {
      expect(r.path).toBe('/signals');
      // Signed as a task's delivery is, with the account's secret, the webhook-id the run's.
      const headers = new Headers(signatureHeaders(r));
      // Verified at its own send time (the service's clock has moved on by days since).
      const sentAt = Number(r.headers['webhook-timestamp']) * 1000;
      const body = verifyWebhook(headers, r.raw, SECRET, sentAt) as any;
      expect(body).toMatchObject({ type: 'monitor.signals', monitorId: id });
      expect(r.headers['webhook-id']).toContain(body.runId);
      // Only the signals this run saw first, as the signals route lists them (which also says how long they held).
      for (const s of body.signals) expect(s.firstSeen.runId).toBe(body.runId);
      const asFirstSeen = (list: any[]) =>
        list.map(({ figure, brand, engine, direction, before, pValue, qValue, firstSeen }) =>
          JSON.stringify({ figure, brand, engine, direction, before, pValue, qValue, firstSeen }),
        );
      expect(asFirstSeen(body.signals)).toEqual(asFirstSeen(signals.filter((s) => s.firstSeen.runId === body.runId)));
    }
    const shift = hooks.received.find((r) => r.body.runId === shiftRun)?.body;
    for (const s of shift.signals) for (const p of s.prompts) expect(PROMPTS).toContain(p.prompt);
    expect(shift.signals).toContainEqual(
      expect.objectContaining({ figure: 'mentionRate', brand: 'Hoka', engine: 'ASSISTANT_A', direction: 'up' }),
    );

    // Removing the webhook (null) stops the events; the monitor keeps its other settings.
    const edited = await svc.call('PATCH', `/v1/monitors/${id}`, { webhook: null });
    expect(edited.body.monitor).toMatchObject({ webhook: null, samples: 1 });
  }, 120_000);

  it('refuses a webhook that is not an http(s) URL', async () => {
    const r = await svc.call('POST', '/v1/monitors', {
      name: 'bad hook',
      prompts: ['x'],
      engines: ['ASSISTANT_A'],
      brand: { name: 'Hoka' },
      webhook: { url: 'ftp://example.com/x' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
  });
});
