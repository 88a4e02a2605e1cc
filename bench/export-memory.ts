/**
 * Exports at size: the memory of `GET /v1/export` over 10,000 and 100,000 completed tasks, in each format, on the
 * embedded store. The tasks are written straight into a fresh SQLite file (each with a 1.5 KB answer, five cited and
 * two read pages, searches and a region), then the service is started on it and each export is read over HTTP to its
 * end, counting bytes and rows, while the process's RSS is sampled every 20 ms. The baseline is the RSS just before
 * each export (after a GC); the growth is the peak minus it. A constant-memory export grows the same at both sizes.
 *
 *   npx tsx --expose-gc bench/export-memory.ts [--tasks=100000] [--format=jsonl|csv|parquet]
 *
 * For figures that do not carry one export's allocator slack into the next, run one format and size per process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createApp } from '../src/app.js';
import { loadSettings } from '../src/config/settings.js';
import { newTaskId } from '../src/domain/task-id.js';
import { createLogger } from '../src/ops/logger.js';

const KEY = 'bench-export-key-0123456789';
const argFormat = process.argv.find((a) => a.startsWith('--format='))?.slice(9);
const FORMATS = argFormat ? [argFormat] : ['jsonl', 'csv', 'parquet'];
const argTasks = process.argv.find((a) => a.startsWith('--tasks='));
const SIZES = argTasks ? [Number(argTasks.slice(8))] : [10_000, 100_000];

function settingsFor(dataDir: string) {
  return loadSettings({
    AEQ_API_KEY: KEY,
    AEQ_SANDBOX: '1',
    HOST: '127.0.0.1',
    PORT: '0',
    AEQ_DATA_DIR: dataDir,
    AEQ_LOG_LEVEL: 'silent',
    AEQ_ROLE: 'api',
  });
}

/** `n` completed tasks of the default account, created over the last hour. */
function fill(file: string, n: number): void {
  const db = new BetterSqlite3(file);
  const now = Date.now();
  const answer = 'Running shoes for flat feet need stability and support. '.repeat(27);
  const result = JSON.stringify({
    text: answer,
    markdown: answer,
    sources: Array.from({ length: 5 }, (_, i) => ({
      position: i + 1,
      url: `https://site${i}.example.com/a`,
      label: 'A',
    })),
    searchQueries: ['running shoes flat feet', 'stability shoes'],
    searchTriggered: true,
    retrievedSources: [{ position: 1, url: 'https://read.example.net/x', title: 'X', query: null }],
    products: null,
    ads: null,
    places: null,
    region: { requested: 'US', exit: 'US', engine: null },
  });
  const insert = db.prepare(
    `insert into tasks (id, task_type, status, priority, sort_key, payload, country, created_at, updated_at,
      available_at, attempts, max_attempts, result, credits_to_charge, credits_charged, finished_at, account_id)
     values (?, 'CHATBOT_A', 'COMPLETED', 1, ?, ?, 'US', ?, ?, ?, 1, 3, ?, 1, 1, ?, 'default')`,
  );
  const many = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = now - 3_600_000 + Math.floor((i / n) * 3_500_000);
      insert.run(newTaskId(at), at, JSON.stringify({ prompt: `prompt ${i}` }), at, at, at, result, at);
    }
  });
  for (let i = 0; i < n; i += 10_000) many(i, Math.min(n, i + 10_000));
  db.close();
}

interface Figure {
  tasks: number;
  format: string;
  rows: number;
  mb: number;
  seconds: number;
  baselineMb: number;
  growthMb: number;
  /** The live heap's peak (after a full collection, every 250 ms) over its size before: what the export holds. */
  heapGrowthMb: number;
}

async function measure(url: string, tasks: number, format: string): Promise<Figure> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = baseline;
  let heapPeak = heapBefore;
  let ticks = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    // Every 250 ms a full collection first: what is then on the heap is what the export holds, not garbage V8 has
    // not collected yet (a longer export leaves more of that, which says nothing of what it keeps).
    if (++ticks % 12 === 0) {
      (globalThis as { gc?: () => void }).gc?.();
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
  }, 20);
  const started = performance.now();
  const since = new Date(Date.now() - 2 * 3_600_000).toISOString();
  const res = await fetch(`${url}/v1/export?since=${encodeURIComponent(since)}&format=${format}`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
  let bytes = 0;
  let newlines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (format === 'jsonl') for (const b of chunk) if (b === 10) newlines++;
  }
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    tasks,
    format,
    rows: format === 'jsonl' ? newlines : tasks,
    mb: Math.round((bytes / 1e6) * 10) / 10,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    baselineMb: Math.round(baseline / 1e6),
    growthMb: Math.round((peak - baseline) / 1e6),
    heapGrowthMb: Math.round((heapPeak - heapBefore) / 1e6),
  };
}

async function main(): Promise<void> {
  const figures: Figure[] = [];
  for (const n of SIZES) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-export-bench-'));
    // A first start makes the schema; the tasks go in while no service holds the file.
    const first = await createApp(settingsFor(dir), { log: createLogger('silent') });
    await first.stop(1000);
    fill(path.join(dir, 'aeq.sqlite'), n);
    const app = await createApp(settingsFor(dir), { log: createLogger('silent') });
    const url = await app.listen();
    for (const format of FORMATS) figures.push(await measure(url, n, format));
    await app.stop(1000);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    '| tasks | format | rows | body MB | seconds | RSS before (MB) | RSS growth (MB) | live heap growth (MB) |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const f of figures)
    console.log(
      `| ${f.tasks.toLocaleString('en')} | ${f.format} | ${f.rows.toLocaleString('en')} | ${f.mb} | ${f.seconds} | ` +
        `${f.baselineMb} | ${f.growthMb} | ${f.heapGrowthMb} |`,
    );
}

await main();
