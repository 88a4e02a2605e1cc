/**
 * Monitors at scale: a monitor of 50 prompts × 4 engines × 2 countries (400 tasks a run) runs
 * daily on the sandbox for 30 simulated days, on SQLite and on PostgreSQL; then the monitor's reads are timed over
 * HTTP against the listening service. The days are stepped with the service's injectable clock, never slept; the
 * tasks of each run are worked in real time meanwhile.
 *
 *   npm run bench:monitors [-- --days=30] [-- --only=sqlite|postgres] [-- --no-write]
 *
 * `startPopulatedService()` is exported so that another script can time other reads (the dashboard's page load)
 * against the same data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createApp, type App } from '../src/app.js';
import { loadSettings } from '../src/config/settings.js';
import { DEFAULT_ACCOUNT_ID } from '../src/domain/account.js';
import type { Clock } from '../src/domain/clock.js';
import { createLogger } from '../src/ops/logger.js';
import { createThrowawayDatabase } from './compare/throwaway-db.js';
import { buildDashboard } from '../web/build.js';
import { monitorPages, type PageLoadFigures, timeDashboardLoads } from './dashboard-load.js';
import { median, percentile, round } from './stats.js';

const DAY = 86_400_000;
const KEY = 'bench-monitors-key-0123456789';
/** The simulated present when the service starts; the monitor's first slot is the next midnight UTC. */
const START = Date.UTC(2026, 10, 1, 10);

export type StoreKind = 'sqlite' | 'postgres';

/** Four monitor engines the sandbox serves in both countries (CHATBOT_A has accounts in US and KR only). */
export const ENGINES = ['CHATBOT_A', 'ANSWER_ENGINE_A', 'ASSISTANT_A', 'AIMODE'] as const;
export const COUNTRIES = ['US', 'KR'] as const;

/**
 * Fifty prompts that name the brand and its competitors (the sandbox's answers restate the prompt, so mentions,
 * first positions and share of voice vary by prompt); ten in Korean, for the Hangul-aware matching.
 */
export function scalePrompts(): string[] {
  const en = [
    'Is {a} better than {b} for marathon training?',
    'Best running shoes from {a} or {b} for flat feet',
    'Which lasts longer, {a} or {b} trail shoes?',
    '{a} vs {b}: which is more comfortable for walking all day?',
    'Are {a} shoes worth the price compared with {b}?',
    'Good cushioned trainers for beginners, {a} or {b}?',
    'What do podiatrists say about {a} and {b}?',
    'Which brand has better sizing, {a} or {b}?',
  ];
  const ko = ['{a}와 {b} 중 마라톤용 러닝화 추천', '{a} 러닝화는 {b}보다 좋은가요?'];
  const pairsEn = [
    ['Nike', 'Adidas'],
    ['Adidas', 'Nike'],
    ['Nike', 'New Balance'],
    ['Hoka', 'Nike'],
    ['Asics', 'Hoka'],
  ];
  const pairsKo = [
    ['나이키', '아디다스'],
    ['아디다스', '나이키'],
    ['나이키', '뉴발란스'],
    ['호카', '나이키'],
    ['아식스', '호카'],
  ];
  const out: string[] = [];
  for (const t of en) for (const [a, b] of pairsEn) out.push(t.replace('{a}', a!).replace('{b}', b!));
  for (const t of ko) for (const [a, b] of pairsKo) out.push(t.replace('{a}', a!).replace('{b}', b!));
  return out;
}

export const MONITOR_BODY = {
  name: 'running shoes at scale',
  prompts: scalePrompts(),
  engines: [...ENGINES],
  countries: [...COUNTRIES],
  // example.com is one of the sites the sandbox cites: counted as the brand's own, the own-citation share is not 0.
  brand: { name: 'Nike', aliases: ['나이키'], domains: ['nike.com', 'example.com'] },
  competitors: [
    { name: 'Adidas', aliases: ['아디다스'] },
    { name: 'New Balance', aliases: ['뉴발란스'] },
    { name: 'Asics', aliases: ['아식스'] },
    { name: 'Hoka', aliases: ['호카'] },
  ],
  schedule: { cron: '0 0 * * *', timezone: 'UTC' },
};

/** A clock that stands still until the bench moves it. */
interface SteppedClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

function steppedClock(start: number): SteppedClock {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
    set(ms) {
      if (ms < t) throw new Error('the clock only moves forward');
      t = ms;
    },
  };
}

export interface PopulateFigures {
  days: number;
  tasks: number;
  failed: number;
  wallMs: number;
  /** Per day: slot taken to run completed (real time). */
  dayMs: number[];
  /** Per day: the scheduler pass that ended the run (reads its tasks, computes and saves results and figures). */
  finishPassMs: number[];
}

export interface PopulatedService {
  store: StoreKind;
  /** Base URL of the listening service. */
  url: string;
  /** The bearer key (AEQ_API_KEY). */
  key: string;
  monitorId: string;
  /** Scheduled times of the runs, oldest first (ms). */
  slots: number[];
  app: App;
  figures: PopulateFigures;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(url: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * Starts the real service in this process (sandbox, `store`, a stepped clock), creates the 50 × 4 × 2 monitor and
 * runs it daily for `days` simulated days. Each day the clock is set just past the day's slot; the scheduler's
 * passes are then called directly (its timer is stopped, so the pass that ends a run can be timed), the worker runs
 * the 400 tasks meanwhile, and the clock moves on by the real time waited (the retry waits and leases read it).
 * Returns once every run has completed, with the service still listening.
 */
export async function startPopulatedService(
  store: StoreKind,
  o: { days?: number; samples?: number; log?: (s: string) => void; dashboardDir?: string } = {},
): Promise<PopulatedService> {
  const days = o.days ?? 30;
  const samples = o.samples ?? 1;
  const log = o.log ?? (() => undefined);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `aeq-monitors-${store}-`));
  const db = store === 'postgres' ? await createThrowawayDatabase('aeq_monitors') : null;
  const configPath = path.join(dataDir, 'config.json');
  // The shipped defaults, but for the retry waits: the clock moves only as the bench waits (50 ms a step), so a
  // retry due seconds later would hold a run up for as long in real time.
  fs.writeFileSync(configPath, JSON.stringify({ scheduler: { retryBaseMs: 20, retryMaxMs: 200 } }));
  const settings = loadSettings({
    ...(db ? { DATABASE_URL: db.url } : {}),
    AEQ_SANDBOX: '1',
    AEQ_API_KEY: KEY,
    AEQ_DATA_DIR: dataDir,
    AEQ_CONFIG: configPath,
    AEQ_LOG_LEVEL: 'silent',
    PORT: '0',
    // The samples of a prompt are due at once: the clock moves only as the bench waits.
    AEQ_MONITOR_SAMPLE_SPACING_SECONDS: '0',
    ...(o.dashboardDir ? { AEQ_DASHBOARD_DIR: o.dashboardDir } : {}),
  });
  const clock = steppedClock(START);
  const app = await createApp(settings, { log: createLogger('silent'), clock });
  const stop = async () => {
    await app.stop(1000);
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await app.listen();
    const scheduler = app.monitors;
    const batches = app.batches;
    if (!scheduler || !batches) throw new Error('the service runs no worker');
    // The bench calls the passes itself (as the tests do): one at a time, each timed.
    await scheduler.stop();

    const made = await call(url, 'POST', '/v1/monitors', MONITOR_BODY);
    if (made.status !== 201) throw new Error(`monitor not created: ${made.status} ${JSON.stringify(made.body)}`);
    const monitorId = made.body.monitor.id as string;
    let perRun = made.body.monitor.tasksPerRun as number;
    if (samples > 1) {
      // 50 prompts × 4 engines × 3 samples is 600 tasks in each country, three times the contract's bound of 200
      // that the API enforces: set through the store, to time the reads of a monitor this size.
      const m = await app.store.monitors.get({ id: monitorId, accountId: DEFAULT_ACCOUNT_ID });
      if (!m || !(await app.store.monitors.update({ ...m, samples }))) throw new Error('monitor not updated');
      perRun *= samples;
    }
    const firstSlot = Date.parse(made.body.monitor.schedule.nextRunAt as string);

    const figures: PopulateFigures = { days, tasks: 0, failed: 0, wallMs: 0, dayMs: [], finishPassMs: [] };
    const slots: number[] = [];
    const t0 = performance.now();
    for (let d = 0; d < days; d++) {
      const slot = firstSlot + d * DAY;
      clock.set(slot + 30_000);
      const dayStart = performance.now();
      await scheduler.runOnce(); // takes the slot and submits the run's tasks
      for (;;) {
        await sleep(50);
        clock.advance(50);
        await batches.runOnce();
        const tp = performance.now();
        await scheduler.runOnce();
        const passMs = performance.now() - tp;
        const open =
          (await app.store.monitors.runsIn({ status: 'starting', limit: 1 })).length +
          (await app.store.monitors.runsIn({ status: 'running', limit: 1 })).length;
        if (open === 0) {
          figures.finishPassMs.push(passMs);
          break;
        }
        if (performance.now() - dayStart > 300_000) throw new Error(`day ${d + 1}: the run did not end in 5 minutes`);
      }
      figures.dayMs.push(performance.now() - dayStart);
      slots.push(slot);
      log(`  ${store} day ${d + 1}/${days}: ${Math.round(performance.now() - dayStart)} ms`);
    }
    figures.wallMs = performance.now() - t0;
    // The tasks of the days before the last are past their 24 hours: the sweep deletes them now, as it would have
    // day by day, so that the reads below are timed on a service at rest, not beside a sweep of 11,000 tasks.
    while ((await app.sweeper.runOnce()) > 0);

    // Every run completed with its tasks' answers (the results are read once here, not timed).
    const runs = (await call(url, 'GET', `/v1/monitors/${monitorId}/runs?limit=100`)).body.runs as Array<{
      status: string;
      progress: { total: number; done: number; failed: number };
    }>;
    if (runs.length !== days) throw new Error(`${runs.length} runs, not ${days}`);
    for (const r of runs) {
      if (r.status !== 'completed' || r.progress.total !== perRun || r.progress.done !== perRun)
        throw new Error(`a run did not complete its ${perRun} tasks: ${JSON.stringify(r)}`);
      figures.tasks += r.progress.done;
      figures.failed += r.progress.failed;
    }
    return { store, url, key: KEY, monitorId, slots, app, figures, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export interface ReadFigures {
  name: string;
  path: string;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  bytes: number;
  /** What the answer holds (series points or runs), to check that the read read what it should. */
  items: number;
}

/** Times `timed` sequential GETs after `warmup` ones: request to last byte, over a real socket. */
export async function timeGet(
  svc: Pick<PopulatedService, 'url' | 'key'>,
  name: string,
  p: string,
  o: { warmup?: number; timed?: number } = {},
): Promise<ReadFigures> {
  const once = async () => {
    const t = performance.now();
    const res = await fetch(svc.url + p, { headers: { authorization: `Bearer ${svc.key}` } });
    const buf = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${buf.toString()}`);
    return { ms, buf };
  };
  for (let i = 0; i < (o.warmup ?? 5); i++) await once();
  const ms: number[] = [];
  let last = Buffer.alloc(0);
  for (let i = 0; i < (o.timed ?? 50); i++) {
    const r = await once();
    ms.push(r.ms);
    last = r.buf;
  }
  const text = last.toString();
  // The CSV's items are its rows; a JSON answer's are its series, signals or runs.
  const body = (text.startsWith('{') ? JSON.parse(text) : { rows: text.trimEnd().split('\n').slice(1) }) as {
    series?: unknown[];
    runs?: unknown[];
    signals?: unknown[];
    rows?: unknown[];
  };
  return {
    name,
    path: p,
    medianMs: median(ms),
    p95Ms: percentile(ms, 95),
    maxMs: Math.max(...ms),
    bytes: last.length,
    items: (body.series ?? body.signals ?? body.runs ?? body.rows ?? []).length,
  };
}

/** The four reads of a monitor a dashboard makes: the series over every run and over 7 days, and the runs. */
export async function timeMonitorReads(svc: PopulatedService): Promise<ReadFigures[]> {
  const base = `/v1/monitors/${svc.monitorId}`;
  const last7From = new Date(svc.slots.at(-7) ?? svc.slots[0]!).toISOString();
  const last7To = new Date((svc.slots.at(-1) ?? 0) + 1).toISOString();
  return [
    await timeGet(svc, `\`…/metrics\`, all ${svc.slots.length} runs`, `${base}/metrics`),
    await timeGet(svc, '`…/metrics?from=…&to=…`, 7 days', `${base}/metrics?from=${last7From}&to=${last7To}`),
    await timeGet(svc, '`…/signals`, all runs tested', `${base}/signals`),
    await timeGet(svc, '`…/metrics.csv`, all runs', `${base}/metrics.csv`),
    await timeGet(svc, '`…/runs?limit=30`', `${base}/runs?limit=30`),
    await timeGet(svc, '`…/runs?limit=1&include=results`', `${base}/runs?limit=1&include=results`),
  ];
}

interface StoreReport {
  store: StoreKind;
  storeVersion: string;
  populate: PopulateFigures;
  reads: ReadFigures[];
  pages: PageLoadFigures[];
}

async function postgresVersion(): Promise<string> {
  const c = new pg.Client({
    connectionString: process.env.AEQ_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await c.connect();
  try {
    const r = await c.query<{ server_version: string }>('show server_version');
    return `PostgreSQL ${r.rows[0]?.server_version ?? '?'}`;
  } finally {
    await c.end();
  }
}

async function sqliteVersion(): Promise<string> {
  const { default: Database } = await import('better-sqlite3');
  const d = new Database(':memory:');
  const v = (d.prepare('select sqlite_version() as v').get() as { v: string }).v;
  d.close();
  return `SQLite ${v} (better-sqlite3, WAL)`;
}

const f1 = (n: number) => round(n, 1).toFixed(1);
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const kb = (n: number) => (n >= 10_240 ? `${Math.round(n / 1024).toLocaleString('en-US')} KiB` : `${n} B`);

function renderTable(reports: StoreReport[]): string[] {
  const lines = ['| store | GET | answer holds | median | p95 | max | bytes |', '|---|---|---:|---:|---:|---:|---:|'];
  for (const r of reports)
    for (const x of r.reads)
      lines.push(
        `| ${r.store} | ${x.name} | ${x.items} | ${f1(x.medianMs)} ms | ${f1(x.p95Ms)} ms | ${f1(x.maxMs)} ms ` +
          `| ${kb(x.bytes)} |`,
      );
  lines.push(
    '',
    '| store | dashboard page (cold load in Chromium, 1280 px) | loads | median | p95 | max | requests | bytes |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of reports)
    for (const x of r.pages)
      lines.push(
        `| ${r.store} | ${x.name} | ${x.loads} | ${f0(x.medianMs)} ms | ${f0(x.p95Ms)} ms | ${f0(x.maxMs)} ms ` +
          `| ${x.requests} | ${kb(x.bytes)} |`,
      );
  lines.push(
    '',
    '| store | days | tasks | failed | wall time | tasks/s | day (slot to run completed), median / max ' +
      '| pass that ends a run, median / max |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of reports) {
    const p = r.populate;
    lines.push(
      `| ${r.store} | ${p.days} | ${p.tasks.toLocaleString('en-US')} | ${p.failed} | ${f1(p.wallMs / 1000)} s ` +
        `| ${f1(p.tasks / (p.wallMs / 1000))} ` +
        `| ${f1(median(p.dayMs) / 1000)} s / ${f1(Math.max(...p.dayMs) / 1000)} s ` +
        `| ${f1(median(p.finishPassMs))} ms / ${f1(Math.max(...p.finishPassMs))} ms |`,
    );
  }
  return lines;
}

export const START_MARK =
  '<!-- bench:monitors:start (written by `npm run bench:monitors`; edit outside these marks) -->';
export const END_MARK = '<!-- bench:monitors:end -->';
const SECTION = '## Monitors at scale';

function renderSection(reports: StoreReport[], startedAt: Date, seconds: number, command: string): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  return [
    `Run of ${startedAt.toISOString()} (${Math.round(seconds)} s), command \`${command}\`.`,
    '',
    `Machine: nproc ${os.availableParallelism()} (${cpu}), memory ${round(os.totalmem() / 1024 ** 3, 1)} GiB, ` +
      `Node ${process.version}, ${os.platform()} ${os.release()}; ${reports.map((r) => r.storeVersion).join('; ')}.`,
    '',
    ...reports.map((r) => {
      const m = r.reads[0];
      const met = m !== undefined && m.p95Ms < 100 && m.medianMs < 100;
      const sig = r.reads.find((x) => x.path.endsWith('/signals'));
      const sigMet = sig !== undefined && sig.p95Ms < 100;
      const page = r.pages.at(-1);
      const loaded = page !== undefined && page.p95Ms < 1000 && page.medianMs < 1000;
      return (
        `- ${r.store}: metrics over ${m?.items ?? 0} points of ${r.populate.days} runs, ` +
        `median ${f1(m?.medianMs ?? Number.NaN)} ms, p95 ${f1(m?.p95Ms ?? Number.NaN)} ms: ` +
        `target under 100 ms ${met ? '**met**' : '**not met**'}; signals over the same runs, median ` +
        `${f1(sig?.medianMs ?? Number.NaN)} ms, p95 ${f1(sig?.p95Ms ?? Number.NaN)} ms: target under 100 ms ` +
        `${sigMet ? '**met**' : '**not met**'}; the monitor's dashboard page loads in ` +
        `${f0(page?.medianMs ?? Number.NaN)} ms (median of ${page?.loads ?? 0} cold loads; p95 ` +
        `${f0(page?.p95Ms ?? Number.NaN)} ms): target under 1 s ${loaded ? '**met**' : '**not met**'}.`
      );
    }),
    '',
    ...renderTable(reports),
  ].join('\n');
}

/** Writes the generated part of the section (between the marks), adding the section after "Study CLI" if absent. */
function writeSection(file: string, generated: string): void {
  const block = `${START_MARK}\n${generated}\n${END_MARK}`;
  const doc = fs.readFileSync(file, 'utf8');
  const a = doc.indexOf(START_MARK);
  const b = doc.indexOf(END_MARK);
  let out: string;
  if (a >= 0 && b > a) out = doc.slice(0, a) + block + doc.slice(b + END_MARK.length);
  else {
    const at = doc.indexOf('\n## ', doc.indexOf('## Study CLI') + 1);
    const section = `${SECTION}\n\n${block}\n`;
    out = at >= 0 ? `${doc.slice(0, at + 1)}${section}\n${doc.slice(at + 1)}` : `${doc.trimEnd()}\n\n${section}`;
  }
  fs.writeFileSync(file, out);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const days = Number(opt('days') ?? 30);
  const samples = Number(opt('samples') ?? 3);
  const only = opt('only');
  const stores: StoreKind[] = only ? [only as StoreKind] : ['sqlite', 'postgres'];
  const write = !args.includes('--no-write') && days === 30 && !only;
  const startedAt = new Date();
  const t0 = performance.now();
  const reports: StoreReport[] = [];
  // The dashboard as `npm run build` makes it, served by each store's service.
  const dashboardDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-dashboard-'));
  await buildDashboard(dashboardDir);
  for (const store of stores) {
    console.log(`${store}: ${days} days of a 50 × 4 × 2 monitor, ${samples} samples`);
    const svc = await startPopulatedService(store, { days, samples, log: (s) => console.log(s), dashboardDir });
    try {
      const reads = await timeMonitorReads(svc);
      console.log(`${store}: timing the dashboard's pages in Chromium`);
      const pages = await timeDashboardLoads(svc, monitorPages(svc.monitorId, svc.slots.length));
      reports.push({
        store,
        storeVersion: store === 'postgres' ? await postgresVersion() : await sqliteVersion(),
        populate: svc.figures,
        reads,
        pages,
      });
    } finally {
      await svc.stop();
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(`\n${renderTable(reports).join('\n')}`);
  const command = `npm run bench:monitors${args.length ? ` -- ${args.join(' ')}` : ''}`;
  if (write) {
    const file = path.resolve(import.meta.dirname, '..', 'docs', 'benchmarks.md');
    writeSection(file, renderSection(reports, startedAt, seconds, command));
    console.log(`\nwritten to ${file}`);
  } else console.log('\n(not written: --no-write, --only or fewer than 30 days)');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
