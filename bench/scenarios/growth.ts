import fs from 'node:fs';
import path from 'node:path';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import type { LoadGenerator, LoadJob, LoadResult } from '../load.js';
import { median, percentile } from '../stats.js';
import { AUTH, call, startBenchService, type BenchService } from '../service.js';
import { IdSample, prefillRetained } from './growth-prefill.js';

/** The single-submit body of the api scenario (bench/scenarios/api.ts), so both measure the same request. */
const SINGLE = { taskType: 'SEARCH_A', payload: { prompt: 'best trail running shoes for wide feet', country: 'US' } };
/** The "nearly empty" store the baseline figures are measured on. */
const SMALL_STORE = 10_000;
const POLL_SAMPLE = 20_000;
const STATS_WARMUPS = 3;
const STATS_CALLS = 50;
const RSS_EVERY_MS = 200;

/** Samples this process's resident memory (the service runs in it) until stopped; returns the max in MB. */
function rssSampler(): { stop(): number } {
  let max = process.memoryUsage().rss;
  const timer = setInterval(() => {
    max = Math.max(max, process.memoryUsage().rss);
  }, RSS_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, process.memoryUsage().rss) / 1024 ** 2;
    },
  };
}

async function repeat(load: LoadGenerator, cfg: BenchConfig, job: LoadJob): Promise<LoadResult[]> {
  if (cfg.warmupS > 0) await load.run({ ...job, durationS: cfg.warmupS });
  // Quick mode: 2 runs instead of 3, so that this scenario (4 measurements and a prefill) stays near 12 s.
  const runs = cfg.quick ? Math.min(cfg.runs, 2) : cfg.runs;
  const out: LoadResult[] = [];
  for (let i = 0; i < runs; i++) out.push(await load.run(job));
  return out;
}

function pollJob(svc: BenchService, cfg: BenchConfig, ids: readonly string[], file: string): LoadJob {
  // Ids drawn at random from the sample, so that reads do not walk the index in order.
  const paths = Array.from({ length: POLL_SAMPLE }, () => `/v1/async/task/${ids[Math.floor(Math.random() * ids.length)]!}`);
  const pathsFile = path.join(svc.dataDir, file);
  fs.writeFileSync(pathsFile, JSON.stringify(paths));
  return { url: `${svc.url}/`, method: 'GET', headers: { authorization: AUTH.authorization }, connections: cfg.connections, durationS: cfg.durationS, pathsFile };
}

async function retainedTasks(svc: BenchService): Promise<number> {
  const s = await svc.app.store.stats(Date.now() - svc.app.settings.retentionMs);
  return s.tasks.QUEUED + s.tasks.PROCESSING + s.tasks.COMPLETED + s.tasks.FAILED;
}

/** Sequential GET /stats (after warm-ups), timed from the request to the last byte of the answer. */
async function timeStats(svc: BenchService): Promise<number[]> {
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
 * with `cfg.growthTasks` retained tasks; resident memory during the large-store runs; GET /stats.
 */
export async function runGrowthScenario(load: LoadGenerator, cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  // Context for the memory figure: what the process holds before the service starts (modules, tsx's loader).
  const startRssMb = process.memoryUsage().rss / 1024 ** 2;
  const svc = await startBenchService();
  try {
    const probe = await call(svc.url, 'POST', '/v1/async/task', SINGLE);
    if (probe.status !== 202) throw new Error(`growth: probe submit answered ${probe.status}`);
    const submitJob: LoadJob = { url: `${svc.url}/v1/async/task`, method: 'POST', headers: AUTH, body: JSON.stringify(SINGLE), connections: cfg.connections, durationS: cfg.durationS };
    const sample = new IdSample(POLL_SAMPLE);

    log(`growth: prefilling ${SMALL_STORE.toLocaleString('en-US')} tasks (nearly empty store)`);
    await prefillRetained(svc.app.store, SMALL_STORE, sample, () => undefined);
    log('growth: submit and poll on the nearly empty store');
    // The same sampling on the small store, so that what the large store adds can be told apart.
    const rssSmall = rssSampler();
    const submitSmall = await repeat(load, cfg, submitJob);
    const pollSmall = await repeat(load, cfg, pollJob(svc, cfg, sample.ids, 'poll-small.json'));
    const maxRssSmallMb = rssSmall.stop();

    const toAdd = Math.max(0, cfg.growthTasks - (await retainedTasks(svc)));
    log(`growth: prefilling ${toAdd.toLocaleString('en-US')} more tasks, up to ${cfg.growthTasks.toLocaleString('en-US')} retained`);
    let nextReport = 100_000;
    await prefillRetained(svc.app.store, toAdd, sample, (p) => {
      if (p.done < nextReport && p.done < toAdd) return;
      nextReport += 100_000;
      log(`growth: ${p.done.toLocaleString('en-US')} / ${toAdd.toLocaleString('en-US')} written in ${Math.round(p.seconds)} s, RSS ${Math.round(process.memoryUsage().rss / 1024 ** 2)} MB`);
    });
    const retained = await retainedTasks(svc);

    log(`growth: GET /stats x ${STATS_CALLS}, then submit and poll over ${retained.toLocaleString('en-US')} tasks`);
    const rss = rssSampler();
    const statsMs = await timeStats(svc);
    const submitLarge = await repeat(load, cfg, submitJob);
    const pollLarge = await repeat(load, cfg, pollJob(svc, cfg, sample.ids, 'poll-large.json'));
    const maxRssMb = rss.stop();

    const at = `growth (${cfg.growthTasks.toLocaleString('en-US')} tasks)`;
    const rps = (rs: LoadResult[]) => rs.map((r) => r.requestsPerS);
    const figures: Figure[] = [
      figure({ scenario: `${at}: single submit`, metric: 'requests/s', unit: 'req/s', runs: rps(submitLarge), baseline: { name: 'same, 10,000-task store', value: median(rps(submitSmall)) }, target: { op: 'ratio>=', value: 0.8 } }),
      figure({ scenario: `${at}: polling`, metric: 'requests/s', unit: 'req/s', runs: rps(pollLarge), baseline: { name: 'same, 10,000-task store', value: median(rps(pollSmall)) }, target: { op: 'ratio>=', value: 0.8 } }),
      figure({ scenario: `${at}: memory`, metric: `max RSS of the bench process (it runs the service), sampled every ${RSS_EVERY_MS} ms`, unit: 'MB', runs: [maxRssMb], target: { op: '<', value: 300, unit: 'MB' } }),
      figure({ scenario: `${at}: memory`, metric: 'max RSS of the same process during the 10,000-task runs', unit: 'MB', runs: [maxRssSmallMb] }),
      figure({ scenario: `${at}: memory`, metric: 'RSS of the same process at the scenario start, before the service starts', unit: 'MB', runs: [startRssMb] }),
      figure({ scenario: `${at}: GET /stats`, metric: `p99 of ${STATS_CALLS} sequential calls`, unit: 'ms', runs: [percentile(statsMs, 99)], target: { op: '<', value: 50, unit: 'ms' } }),
      figure({ scenario: `${at}: GET /stats`, metric: `p50 of ${STATS_CALLS} sequential calls`, unit: 'ms', runs: [percentile(statsMs, 50)] }),
    ];
    const integrity: Integrity[] = [
      // Every prefilled task (and every task accepted before the prefill) is still retained.
      { scenario: 'growth prefill (retained tasks)', expected: cfg.growthTasks, observed: retained, failedRequests: 0, lost: Math.max(0, cfg.growthTasks - retained), duplicates: Math.max(0, retained - cfg.growthTasks) },
      loadIntegrity('growth submit', [...submitSmall, ...submitLarge]),
      loadIntegrity('growth polling', [...pollSmall, ...pollLarge]),
    ];
    return { figures, integrity };
  } finally {
    await svc.stop();
  }
}
