import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import type { LoadGenerator, LoadJob, LoadResult } from '../load.js';
import { median, percentile } from '../stats.js';
import type { Stats } from '../../src/store/store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { AUTH, call } from '../service.js';
import { IdSample, prefillRetained } from './growth-prefill.js';
import { buildService, memoryOf, rssSampler, serviceCommand, serviceEnv, startServiceProcess, storeOptionsOf, type ServiceProcess } from './growth-service.js';

/** The single-submit body of the api scenario (bench/scenarios/api.ts), so both measure the same request. */
const SINGLE = { taskType: 'SEARCH_A', payload: { prompt: 'best trail running shoes for wide feet', country: 'US' } };
/** The "nearly empty" store the baseline figures are measured on. */
const SMALL_STORE = 10_000;
const POLL_SAMPLE = 20_000;
const STATS_WARMUPS = 3;
const STATS_CALLS = 50;
const RSS_EVERY_MS = 200;

async function repeat(load: LoadGenerator, cfg: BenchConfig, job: LoadJob): Promise<LoadResult[]> {
  if (cfg.warmupS > 0) await load.run({ ...job, durationS: cfg.warmupS });
  // Quick mode: 1 run instead of 3, so that this scenario (4 measurements, 2 prefills, 2 service starts under tsx of ~2.5 s) stays under 15 s.
  const runs = cfg.quick ? 1 : cfg.runs;
  const out: LoadResult[] = [];
  for (let i = 0; i < runs; i++) out.push(await load.run(job));
  return out;
}

function pollJob(svc: ServiceProcess, cfg: BenchConfig, ids: readonly string[], pathsFile: string): LoadJob {
  // Ids drawn at random from the sample, so that reads do not walk the index in order.
  const paths = Array.from({ length: POLL_SAMPLE }, () => `/v1/async/task/${ids[Math.floor(Math.random() * ids.length)]!}`);
  fs.writeFileSync(pathsFile, JSON.stringify(paths));
  return { url: `${svc.url}/`, method: 'GET', headers: { authorization: AUTH.authorization }, connections: cfg.connections, durationS: cfg.durationS, pathsFile };
}

function submitJob(svc: ServiceProcess, cfg: BenchConfig): LoadJob {
  return { url: `${svc.url}/v1/async/task`, method: 'POST', headers: AUTH, body: JSON.stringify(SINGLE), connections: cfg.connections, durationS: cfg.durationS };
}

function retainedOf(s: Pick<Stats, 'tasks'>): number {
  return s.tasks.QUEUED + s.tasks.PROCESSING + s.tasks.COMPLETED + s.tasks.FAILED;
}

/** Retained tasks as the running service counts them (GET /stats). */
async function retainedByService(svc: ServiceProcess): Promise<number> {
  const r = await call(svc.url, 'GET', '/stats');
  if (r.status !== 200) throw new Error(`growth: GET /stats answered ${r.status}`);
  return retainedOf(r.body as Pick<Stats, 'tasks'>);
}

/**
 * Tops the store up to `target` retained tasks from this process, through the store API, while the
 * service process is stopped (one writer at a time); the store is closed before the service restarts.
 */
async function prefillStopped(env: Record<string, string>, target: number, sample: IdSample, log: (s: string) => void): Promise<void> {
  const o = storeOptionsOf(env);
  const store = openSqliteStore(o.file, o.agingMs);
  try {
    await store.migrate();
    const toAdd = Math.max(0, target - retainedOf(await store.stats(Date.now() - o.retentionMs)));
    log(`growth: prefilling ${toAdd.toLocaleString('en-US')} tasks (service stopped), up to ${target.toLocaleString('en-US')} retained`);
    let nextReport = 100_000;
    await prefillRetained(store, toAdd, sample, (p) => {
      if (p.done < nextReport && p.done < toAdd) return;
      nextReport += 100_000;
      if (toAdd >= 100_000) log(`growth: ${p.done.toLocaleString('en-US')} / ${toAdd.toLocaleString('en-US')} written in ${Math.round(p.seconds)} s`);
    });
  } finally {
    await store.close();
  }
}

/** Sequential GET /stats (after warm-ups), timed from the request to the last byte of the answer. */
async function timeStats(svc: ServiceProcess): Promise<number[]> {
  const once = async (): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${svc.url}/stats`, { headers: { authorization: AUTH.authorization } });
    await res.text();
    if (res.status !== 200) throw new Error(`GET /stats answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < STATS_WARMUPS; i++) await once();
  const out: number[] = [];
  for (let i = 0; i < STATS_CALLS; i++) out.push(await once());
  return out;
}

function failedOf(rs: LoadResult[]): number {
  return rs.reduce((n, r) => n + r.non2xx + r.errors, 0);
}

function loadIntegrity(scenario: string, rs: LoadResult[]): Integrity {
  const total = rs.reduce((n, r) => n + r.total, 0);
  return { scenario, expected: total, observed: total - failedOf(rs), failedRequests: failedOf(rs), lost: 0, duplicates: 0 };
}

/**
 * Growth: single submit and polling on a nearly empty store (10,000 tasks), then the same loads
 * with `cfg.growthTasks` retained tasks; GET /stats; the service process's resident memory.
 * The service runs as its own process (`aeq serve`) on a data dir of this scenario; the prefills
 * write the same SQLite file from the bench while it is stopped.
 */
export async function runGrowthScenario(load: LoadGenerator, cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const cmd = serviceCommand(cfg.quick);
  if (!cfg.quick) {
    log('growth: building the service once (npm run build), to run node dist/cli/main.js');
    await buildService();
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-growth-'));
  const env = serviceEnv(dataDir);
  let svc: ServiceProcess | null = null;
  try {
    const sample = new IdSample(POLL_SAMPLE);
    await prefillStopped(env, SMALL_STORE, sample, log);
    log(`growth: starting the ${cmd.label}; submit and poll on the nearly empty store`);
    svc = await startServiceProcess(cmd, env);
    const probe = await call(svc.url, 'POST', '/v1/async/task', SINGLE);
    if (probe.status !== 202) throw new Error(`growth: probe submit answered ${probe.status}`);
    // The same sampling on the small store, so that what the large store adds can be told apart.
    const memSmall = rssSampler(svc.pid, RSS_EVERY_MS);
    const submitSmall = await repeat(load, cfg, submitJob(svc, cfg));
    const pollSmall = await repeat(load, cfg, pollJob(svc, cfg, sample.ids, path.join(dataDir, 'poll-small.json')));
    const small = memSmall.stop();
    await svc.stop();
    svc = null;

    await prefillStopped(env, cfg.growthTasks, sample, log);
    svc = await startServiceProcess(cmd, env);
    const readyRssMb = memoryOf(svc.pid).rssMb;
    const mem = rssSampler(svc.pid, RSS_EVERY_MS);
    const retained = await retainedByService(svc);
    log(`growth: GET /stats x ${STATS_CALLS}, then submit and poll over ${retained.toLocaleString('en-US')} tasks`);
    const statsMs = await timeStats(svc);
    const submitLarge = await repeat(load, cfg, submitJob(svc, cfg));
    const pollLarge = await repeat(load, cfg, pollJob(svc, cfg, sample.ids, path.join(dataDir, 'poll-large.json')));
    const large = mem.stop();
    await svc.stop();
    svc = null;

    const at = `growth (${cfg.growthTasks.toLocaleString('en-US')} tasks)`;
    const rps = (rs: LoadResult[]) => rs.map((r) => r.requestsPerS);
    const figures: Figure[] = [
      figure({ scenario: `${at}: single submit`, metric: 'requests/s', unit: 'req/s', runs: rps(submitLarge), baseline: { name: 'same, 10,000-task store', value: median(rps(submitSmall)) }, target: { op: 'ratio>=', value: 0.8 } }),
      figure({ scenario: `${at}: polling`, metric: 'requests/s', unit: 'req/s', runs: rps(pollLarge), baseline: { name: 'same, 10,000-task store', value: median(rps(pollSmall)) }, target: { op: 'ratio>=', value: 0.8 } }),
      figure({ scenario: `${at}: memory`, metric: `max VmRSS of the ${cmd.label} during the large-store runs (/stats, submit, poll), read every ${RSS_EVERY_MS} ms`, unit: 'MB', runs: [large.maxRssMb], target: { op: '<', value: 300, unit: 'MB' } }),
      figure({ scenario: `${at}: memory`, metric: 'VmHWM (peak RSS since its start) of the same process after the large-store runs', unit: 'MB', runs: [large.hwmMb] }),
      figure({ scenario: `${at}: memory`, metric: 'VmRSS of the same process once ready, before its first request', unit: 'MB', runs: [readyRssMb] }),
      figure({ scenario: `${at}: memory`, metric: 'max VmRSS of the service process of the 10,000-task runs (started the same way)', unit: 'MB', runs: [small.maxRssMb] }),
      figure({ scenario: `${at}: memory`, metric: 'VmHWM of that process after the 10,000-task runs', unit: 'MB', runs: [small.hwmMb] }),
      figure({ scenario: `${at}: GET /stats`, metric: `p99 of ${STATS_CALLS} sequential calls`, unit: 'ms', runs: [percentile(statsMs, 99)], target: { op: '<', value: 50, unit: 'ms' } }),
      figure({ scenario: `${at}: GET /stats`, metric: `p50 of ${STATS_CALLS} sequential calls`, unit: 'ms', runs: [percentile(statsMs, 50)] }),
    ];
    const integrity: Integrity[] = [
      // Every prefilled task (and every task accepted before the prefill) is still retained, as the restarted service counts them.
      { scenario: 'growth prefill (retained tasks)', expected: cfg.growthTasks, observed: retained, failedRequests: 0, lost: Math.max(0, cfg.growthTasks - retained), duplicates: Math.max(0, retained - cfg.growthTasks) },
      loadIntegrity('growth submit', [...submitSmall, ...submitLarge]),
      loadIntegrity('growth polling', [...pollSmall, ...pollLarge]),
    ];
    return { figures, integrity };
  } finally {
    await svc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
