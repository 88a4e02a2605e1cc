import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../app.js';
import { loadSettings } from '../config/settings.js';
import type { Clock } from '../domain/clock.js';
import { createLogger } from '../ops/logger.js';
import { DEMO_KEY as KEY } from './demo.js';
import { table } from './table.js';

const DAY_MS = 86_400_000;
const ENGINES = ['CHATBOT_A', 'ANSWER_ENGINE_A', 'ASSISTANT_A', 'AIMODE'] as const;
const SHIFTED_ENGINE = 'ASSISTANT_A';
const SHIFT_POINTS = 60;
const PROMPTS = [
  'best running shoes for flat feet',
  'running shoes for beginners',
  'trail running shoes for wet rocks',
  'cushioned running shoes for long runs',
  'running shoes for wide feet',
  'lightweight running shoes for racing',
];

interface Point {
  slotAt: string;
  engine: string;
  mentionRate: number;
}

/** The members of the service's answers the demo reads. */
interface DemoAnswer {
  monitor?: { id: string };
  runs?: Array<{ status: string; tasks: number }>;
  series?: Point[];
}
type Call = (method: string, p: string, body?: unknown) => Promise<{ status: number; body: DemoAnswer }>;

export interface MonitorDemoOptions {
  /** Daily runs, 2 to 60: the first `days - 1` days ago, the last today. */
  days: number;
  /** Keep the service running afterwards, for the dashboard (until Ctrl-C). */
  keep: boolean;
  /** The first run's day (UTC midnight, epoch ms); default `days - 1` days ago. The same days replay the same lines. */
  start?: number;
}

/**
 * `aeq demo --monitor`: what a visibility monitor shows, in a minute. The sandbox service runs on a clock set `days`
 * days back; a monitor of running-shoe prompts on four engines runs once a day, the clock stepping a day between
 * runs, and from the middle day its prompts carry `sandbox:shift`, which raises the brand's visibility on one engine.
 * It prints the mention rate per engine and day, and what changed; with `keep`, the dashboard shows the same lines.
 */
export async function runMonitorDemo(
  o: MonitorDemoOptions,
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-demo-monitor-'));
  // The service's clock runs `offsetMs` behind: at the first day's time of day now, stepped a day after each run.
  const startMs = o.start === undefined ? Date.now() - (o.days - 1) * DAY_MS : o.start + (Date.now() % DAY_MS);
  let offsetMs = Date.now() - startMs;
  const clock: Clock = { now: () => Date.now() - offsetMs };
  const settings = loadSettings({
    AEQ_SANDBOX: '1',
    AEQ_API_KEY: KEY,
    PORT: o.keep ? (process.env.PORT ?? '8080') : '0',
    AEQ_DATA_DIR: dataDir,
    AEQ_LOG_LEVEL: 'silent',
    ...(process.env.AEQ_DASHBOARD_DIR ? { AEQ_DASHBOARD_DIR: process.env.AEQ_DASHBOARD_DIR } : {}),
  });
  const app = await createApp(settings, { log: createLogger('silent'), clock });
  const base = await app.listen();
  const call: Call = async (method, p, body) => {
    const res = await fetch(base + p, {
      method,
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as DemoAnswer };
  };
  try {
    const shiftDay = dayOf(clock.now() + Math.floor(o.days / 2) * DAY_MS);
    const directive = `sandbox:shift=hoka:+${SHIFT_POINTS}@${shiftDay}:${SHIFTED_ENGINE}`;
    out.write(`aeq demo --monitor: sandbox service on ${base} (data in ${dataDir})\n`);
    const created = await call('POST', '/v1/monitors', {
      name: 'Running shoes (sandbox demo)',
      prompts: PROMPTS.map((p) => `${p} ${directive}`),
      engines: ENGINES,
      countries: ['US'],
      brand: { name: 'Hoka', domains: ['hoka.com'] },
      competitors: [
        { name: 'Nike', domains: ['nike.com'] },
        { name: 'Brooks', domains: ['brooksrunning.com'] },
        { name: 'Asics', domains: ['asics.com'] },
        { name: 'New Balance', domains: ['newbalance.com'] },
      ],
    });
    if (created.status !== 201) throw new Error(`creating the monitor answered ${created.status}`);
    const id = String(created.body.monitor?.id);
    // Paused: only the demo's own daily runs, none of the schedule's as the clock steps over midnights.
    await call('PATCH', `/v1/monitors/${id}`, { status: 'paused' });
    out.write(
      `monitor "Running shoes (sandbox demo)": ${PROMPTS.length} prompts × ${ENGINES.length} engines in US, ` +
        `${o.days} daily runs. Its prompts carry ${directive}: from ${shiftDay} on, Hoka is ` +
        `${SHIFT_POINTS} points more likely to be named by ${SHIFTED_ENGINE}.\n\n`,
    );
    for (let d = 0; d < o.days; d++) {
      const started = await call('POST', `/v1/monitors/${id}/runs`);
      if (started.status !== 202) throw new Error(`run ${d + 1} answered ${started.status}`);
      const run = await finished(call, id);
      out.write(`[${d + 1}/${o.days}] ${dayOf(clock.now())} run ${run.status} (${run.tasks} answers)\n`);
      if (d < o.days - 1) offsetMs -= DAY_MS;
    }
    const series = (await call('GET', `/v1/monitors/${id}/metrics`)).body.series ?? [];
    out.write(`\nMention rate of Hoka, per engine and day (share of answers naming it):\n`);
    const days = [...new Set(series.map((p) => dayOf(Date.parse(p.slotAt))))].sort();
    const rate = (day: string, engine: string) =>
      series.find((p) => dayOf(Date.parse(p.slotAt)) === day && p.engine === engine)?.mentionRate ?? null;
    out.write(
      table(
        ['day', ...ENGINES],
        days.map((day) => [day, ...ENGINES.map((e) => pct(rate(day, e)))]),
      ),
    );
    out.write('\nBefore and from the shift (mean of the daily rates):\n');
    out.write(
      table(
        ['engine', `before ${shiftDay}`, `from ${shiftDay}`],
        ENGINES.map((e) => {
          const mean = (ds: string[]) => meanOf(ds.map((d) => rate(d, e)));
          return [e, pct(mean(days.filter((d) => d < shiftDay))), pct(mean(days.filter((d) => d >= shiftDay)))];
        }),
      ),
    );
    if (o.keep) {
      out.write(`\ndashboard: ${base}/dashboard/#/monitors/${id} (API key ${KEY}); Ctrl-C stops the service\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    }
    return 0;
  } finally {
    await app.stop(1000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Polls the monitor's latest run until it has ended (a minute at most). */
async function finished(call: Call, id: string): Promise<{ status: string; tasks: number }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = (await call('GET', `/v1/monitors/${id}/runs?limit=1`)).body.runs?.[0];
    if (run && run.status !== 'starting' && run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error('a monitor run did not end within a minute');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);
function meanOf(vs: Array<number | null>): number | null {
  const known = vs.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((s, v) => s + v, 0) / known.length;
}
