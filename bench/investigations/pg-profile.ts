import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { submitAll, waitCompleted } from '../scenarios/dispatch.js';
import { NOOP_ENGINE, attemptLog, startBenchService } from '../service.js';
import { allProcStats } from '../proc-stat.js';
import { median, percentile } from '../stats.js';

/**
 * Where a task's time goes on the PostgreSQL store. Runs the comparison workload of
 * bench/scenarios/compare.ts (N no-op tasks, concurrency 256, submitted over HTTP in batches of 500,
 * two in flight, timed from submit to COMPLETED) against a SEPARATE PostgreSQL cluster that loads
 * pg_stat_statements, and prints markdown tables for docs/benchmarks.md:
 *
 *  1. tasks/s;
 *  2. round trips and transactions per task (pg_stat_statements, pg_stat_database, and the client's own count), by
 *     statement: what the hot path sends is one call per turn of each of aeq_claim_tasks, the finish, the heartbeat,
 *     aeq_acquire_pool_slots and aeq_release_pool_slots (src/store/tasks/claim.ts, finish.ts, heartbeat.ts,
 *     src/store/pool-leases.ts), and one insert per submitted batch;
 *  3. the claim: calls, tasks per call and server time of aeq_claim_tasks, and how often its per-engine lock
 *     (pg_advisory_xact_lock inside the function) is held or waited on;
 *  4. WAL bytes per task (pg_current_wal_lsn and pg_stat_wal);
 *  5. waits for a connection of the service's pg.Pool;
 *  6. a CPU profile of the service's process (the bench client runs in it too, as in compare.ts).
 *
 * Nothing under src/ is edited. The measurements come from outside the code under test:
 *  - pg.Client.prototype.query and pg.Pool.prototype.connect are wrapped (monkey-patched) by this
 *    script, before the service opens its pool, to time each statement and each connection checkout.
 *    This is fine for a bench script; the wrappers add a performance.now() pair and a map update per call.
 *  - A worker thread samples pg_locks and pg_stat_activity every --sample-ms (default 2) from its own
 *    connection (the claim's lock, which the client never sees, and what the service's backends are doing).
 *  - The main thread samples the pool's waitingCount / totalCount / idleCount every 2 ms (setInterval, so
 *    only between event-loop turns).
 *  - The CPU profile covers the measured window only (node:inspector's Profiler, the same .cpuprofile
 *    format as `node --cpu-prof`), summarised by bench/profile-summary.ts.
 *
 * The cluster (once, as root; see .tmp/pg-profile-baseline.md for the settings used):
 *   pg_createcluster 15 prof -p 5433 -- --auth=trust
 *   /etc/postgresql/15/prof/conf.d/profiling.conf: shared_preload_libraries = 'pg_stat_statements',
 *     pg_stat_statements.track = all, pg_stat_statements.track_utility = on, track_io_timing = on
 *     (and listen_addresses = '127.0.0.1', autovacuum = off, as the main cluster's conf.d/90-ci.conf)
 *   pg_ctlcluster --skip-systemctl-redirect 15 prof start
 *
 * Usage: npm run bench:pg-profile -- [--tasks=10000] [--runs=3] [--concurrency=256]
 *   [--url=postgres://postgres@127.0.0.1:5433/postgres] [--sample-ms=2 (0: no pg_locks sampler)] [--no-cpu-prof]
 */

interface Options {
  tasks: number;
  runs: number;
  concurrency: number;
  url: string;
  sampleMs: number;
  cpuProf: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    tasks: 10_000,
    runs: 3,
    concurrency: 256,
    url: 'postgres://postgres@127.0.0.1:5433/postgres',
    sampleMs: 2,
    cpuProf: true,
  };
  for (const arg of argv) {
    const [k, v] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    const int = (): number => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new Error(`${k} needs a whole number, got ${JSON.stringify(v)}`);
      return n;
    };
    if (k === '--tasks') o.tasks = int();
    else if (k === '--runs') o.runs = int();
    else if (k === '--concurrency') o.concurrency = int();
    else if (k === '--sample-ms') o.sampleMs = int();
    else if (k === '--url' && v) o.url = v;
    else if (k === '--no-cpu-prof') o.cpuProf = false;
    else throw new Error(`unknown argument ${arg} (see the comment at the top of bench/investigations/pg-profile.ts)`);
  }
  if (o.tasks < 1 || o.runs < 1 || o.concurrency < 1) throw new Error('--tasks, --runs and --concurrency must be >= 1');
  return o;
}

// ---------------------------------------------------------------------------------------------
// Client-side instrumentation: pg.Client.prototype.query and pg.Pool.prototype.connect, wrapped.

interface StatementTiming {
  calls: number;
  ms: number;
}

const instr = {
  /** Counting only between the start and the end of the measured window. */
  active: false,
  queries: 0,
  byText: new Map<string, StatementTiming>(),
  connectWaitsMs: [] as number[],
  pools: new Set<pg.Pool>(),
};

function shorten(sql: string, max = 100): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function onAnswered(text: string, sent: number): void {
  if (!instr.active) return;
  instr.queries++;
  const t = instr.byText.get(text) ?? { calls: 0, ms: 0 };
  t.calls++;
  t.ms += performance.now() - sent;
  instr.byText.set(text, t);
}

type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
type ConnectFn = (this: pg.Pool, ...args: unknown[]) => unknown;

/** Wraps the driver's query and connect; must run before the service opens its pool. */
function instrumentPg(): void {
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const query = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]): unknown {
    // Kysely and the wake bus call query(text, values) and await its promise; the hot path's named prepared
    // statements (src/store/postgres/prepared.ts) go through pg.Pool's query, which calls query({name, text, values},
    // undefined, callback). Both are counted; other forms pass through uncounted.
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
    const sent = performance.now();
    const last = args.at(-1);
    if (typeof text === 'string' && typeof last === 'function') {
      args[args.length - 1] = (...cb: unknown[]) => {
        onAnswered(text, sent);
        return (last as (...a: unknown[]) => unknown)(...cb);
      };
      return query.apply(this, args);
    }
    const out = query.apply(this, args);
    if (typeof text !== 'string' || !(out instanceof Promise)) return out;
    return out.then(
      (r: pg.QueryResult) => {
        onAnswered(text, sent);
        return r;
      },
      (e: unknown) => {
        onAnswered(text, sent);
        throw e;
      },
    );
  };
  const poolProto = pg.Pool.prototype as unknown as { connect: ConnectFn };
  const connect = poolProto.connect;
  poolProto.connect = function (this: pg.Pool, ...args: unknown[]): unknown {
    instr.pools.add(this);
    const asked = performance.now();
    const out = connect.apply(this, args);
    if (!(out instanceof Promise)) return out;
    return out.then((c: unknown) => {
      if (instr.active) instr.connectWaitsMs.push(performance.now() - asked);
      return c;
    });
  };
}

/** The pool's counters every `ms` (between event-loop turns). */
function samplePools(ms: number) {
  const s = { samples: 0, withWaiters: 0, maxWaiting: 0, sumWaiting: 0, noIdle: 0, sumTotal: 0, maxTotal: 0 };
  const timer = setInterval(() => {
    for (const p of instr.pools) {
      s.samples++;
      if (p.waitingCount > 0) s.withWaiters++;
      if (p.idleCount === 0) s.noIdle++;
      s.maxWaiting = Math.max(s.maxWaiting, p.waitingCount);
      s.sumWaiting += p.waitingCount;
      s.sumTotal += p.totalCount;
      s.maxTotal = Math.max(s.maxTotal, p.totalCount);
    }
  }, ms);
  return {
    stop: () => {
      clearInterval(timer);
      return s;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server-side sampler: pg_locks and pg_stat_activity from a worker thread with its own connection.

interface LockSamples {
  samples: number;
  elapsedMs: number;
  claimHeld: number;
  claimWaited: number;
  claimMaxWaiters: number;
  /** Backend-samples of the service's connections by state / wait event. */
  activity: Record<string, number>;
  backendSamples: number;
  error?: string;
}

// CommonJS, evaluated in a worker thread (a worker does not get tsx's loader, so this is plain JavaScript).
const SAMPLER_JS = `
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const SQL = \`
  select 'act' as kind, case
      when state = 'active' and wait_event is null then 'active, on CPU'
      when state = 'active' then 'active, waiting ' || wait_event_type || ':' || wait_event
      else coalesce(state, '?') end as v
    from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()
  union all
  select 'lock', case when granted then 'held' else 'wait' end
    from (select granted, (classid::bigint << 32) | objid::bigint as k from pg_locks
          where locktype = 'advisory' and database = (select oid from pg_database where datname = $1)) l
    where k = hashtext($2)::bigint\`;
let stop = false;
parentPort.on('message', (m) => { if (m === 'stop') stop = true; });
(async () => {
  const c = new pg.Client({ connectionString: workerData.url });
  await c.connect();
  const r = { samples: 0, elapsedMs: 0, claimHeld: 0, claimWaited: 0, claimMaxWaiters: 0, activity: {},
    backendSamples: 0 };
  parentPort.postMessage('ready');
  const t0 = performance.now();
  while (!stop) {
    const res = await c.query({ name: 'sample', text: SQL, values: [workerData.datname, workerData.claimKey] });
    r.samples++;
    let held = 0, waiters = 0;
    for (const row of res.rows) {
      if (row.kind === 'act') { r.activity[row.v] = (r.activity[row.v] || 0) + 1; r.backendSamples++; }
      else if (row.v === 'held') held++;
      else waiters++;
    }
    if (held) r.claimHeld++;
    if (waiters) r.claimWaited++;
    r.claimMaxWaiters = Math.max(r.claimMaxWaiters, waiters);
    await new Promise((ok) => setTimeout(ok, workerData.intervalMs));
  }
  r.elapsedMs = performance.now() - t0;
  await c.end();
  parentPort.postMessage(r);
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

async function startLockSampler(url: string, datname: string, intervalMs: number) {
  const w = new Worker(SAMPLER_JS, {
    eval: true,
    workerData: {
      pgPath: createRequire(import.meta.url).resolve('pg'),
      url,
      datname,
      intervalMs,
      claimKey: `aeq:claim:${NOOP_ENGINE}`,
    },
  });
  const messages: unknown[] = [];
  let wake: (() => void) | null = null;
  w.on('message', (m: unknown) => {
    messages.push(m);
    wake?.();
  });
  const next = async (): Promise<unknown> => {
    while (messages.length === 0) await new Promise<void>((ok) => (wake = ok));
    return messages.shift();
  };
  const first = await next();
  if (first !== 'ready') throw new Error(`pg_locks sampler: ${JSON.stringify(first)}`);
  return {
    async stop(): Promise<LockSamples> {
      w.postMessage('stop');
      const r = (await next()) as LockSamples;
      await w.terminate();
      if (r.error) throw new Error(`pg_locks sampler: ${r.error}`);
      return r;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The cluster.

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

interface ClusterInfo {
  version: string;
  settings: Array<[string, string]>;
  postmasterPid: number | null;
}

const SHOWN_SETTINGS = [
  'max_connections',
  'shared_buffers',
  'synchronous_commit',
  'fsync',
  'wal_level',
  'full_page_writes',
  'wal_buffers',
  'commit_delay',
  'checkpoint_timeout',
  'max_wal_size',
  'autovacuum',
  'track_io_timing',
  'shared_preload_libraries',
  'pg_stat_statements.track',
  'pg_stat_statements.track_utility',
];

async function checkCluster(url: string): Promise<ClusterInfo> {
  try {
    return await withClient(url, async (c) => {
      const libs = (await c.query<{ v: string }>('select current_setting($1) as v', ['shared_preload_libraries'])).rows;
      if (!libs[0]?.v.split(',').some((l) => l.trim() === 'pg_stat_statements'))
        throw new Error(
          `the cluster at ${url} does not load pg_stat_statements (shared_preload_libraries = ` +
            `'${libs[0]?.v ?? ''}'); see the comment at the top of bench/investigations/pg-profile.ts`,
        );
      await c.query('create extension if not exists pg_stat_statements');
      const version = (await c.query<{ v: string }>('select version() as v')).rows[0]?.v ?? '?';
      const settings: Array<[string, string]> = [];
      for (const name of SHOWN_SETTINGS) {
        const r = await c.query<{ v: string }>('select current_setting($1, true) as v', [name]);
        settings.push([name, r.rows[0]?.v ?? '(unset)']);
      }
      let postmasterPid: number | null = null;
      try {
        const dir = (await c.query<{ v: string }>("select current_setting('data_directory') as v")).rows[0]?.v;
        if (dir) postmasterPid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        // Not this machine's cluster, or not readable: no PostgreSQL CPU figure.
      }
      return { version, settings, postmasterPid };
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ECONNREFUSED' || code === '3D000' || code === '28000')
      throw new Error(
        `No profiling cluster at ${url} (${code}). Create it once, as root:\n` +
          '  pg_createcluster 15 prof -p 5433 -- --auth=trust\n' +
          "  add shared_preload_libraries = 'pg_stat_statements', pg_stat_statements.track = all,\n" +
          '    track_io_timing = on to /etc/postgresql/15/prof/conf.d/profiling.conf\n' +
          '  pg_ctlcluster --skip-systemctl-redirect 15 prof start\n' +
          'or pass --url=... (never the main cluster on 5432: this script resets its statistics).',
      );
    throw e;
  }
}

/** CPU seconds (user + system) of the postmaster and its children, by pid, from /proc; null if unreadable. */
function postgresCpu(postmasterPid: number | null): Map<number, number> | null {
  if (postmasterPid === null) return null;
  try {
    const ours = allProcStats().filter((p) => p.pid === postmasterPid || p.ppid === postmasterPid);
    return new Map(ours.map((p) => [p.pid, p.cpuMs / 1000]));
  } catch {
    return null;
  }
}

function cpuDelta(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let s = 0;
  for (const [pid, t] of after) s += t - (before.get(pid) ?? 0);
  return s;
}

// ---------------------------------------------------------------------------------------------
// CPU profile of the service's process (main thread), over the measured window.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** A coarse split of self time: the driver, Kysely, Fastify, our code, the bench client, V8. */
function category(url: string, fn: string): string {
  if (!url) {
    if (fn === '(idle)') return 'idle (event loop waiting)';
    if (fn === '(garbage collector)') return 'GC';
    if (fn === '(program)') return '(program): V8 / native, no JS frame';
    return `native: ${fn || '(anonymous)'}`;
  }
  if (url.startsWith('node:')) return 'Node core (node:*)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    const pkg = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? '');
    if (/^(pg|pg-protocol|pg-types|pg-pool|pg-connection-string|postgres-\w+|pgpass)$/.test(pkg))
      return 'pg driver (protocol, types, pool)';
    if (pkg === 'kysely') return 'Kysely (compile, execute)';
    if (/^(fastify|@fastify\/.*|find-my-way|avvio|light-my-request|fast-json-stringify|secure-json-parse)$/.test(pkg))
      return 'Fastify (routing, hooks, serialisation)';
    if (/^(ajv|ajv-formats|fast-uri)$/.test(pkg)) return 'Ajv (validation)';
    if (/^(pino|sonic-boom|thread-stream)$/.test(pkg)) return 'pino (logging)';
    if (pkg === 'undici') return 'undici (bench client fetch)';
    if (pkg === 'prom-client') return 'prom-client (metrics)';
    if (pkg === 'tsx' || pkg === 'esbuild') return 'tsx (loader)';
    return `other package: ${pkg}`;
  }
  if (url.includes('/src/')) return `aeq src/${url.slice(url.indexOf('/src/') + 5).split('/')[0] ?? ''}`;
  if (url.includes('/bench/')) return 'bench script (client, samplers)';
  return 'other';
}

interface CpuSummary {
  totalMs: number;
  byCategory: Array<[string, number]>;
  /** Self time with native and node:* frames charged to their nearest caller of another category. */
  byCaller: Map<string, number>;
  file: string;
}

function summariseProfile(file: string, nodes: ProfileNode[], samples: number[], deltas: number[]): CpuSummary {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const by = new Map<string, number>();
  const byCaller = new Map<string, number>();
  let total = 0;
  for (const [i, id] of samples.entries()) {
    const us = deltas[i] ?? 0;
    total += us;
    const n = byId.get(id);
    const k = n ? category(n.callFrame.url, n.callFrame.functionName) : '?';
    by.set(k, (by.get(k) ?? 0) + us);
    // Walk up from a native or Node-core frame (writev, streams, timers) to the code that called it.
    let caller = k;
    if (n && (k.startsWith('native: ') || k === 'Node core (node:*)')) {
      for (let p = parent.get(n.id); p !== undefined; p = parent.get(p)) {
        const pn = byId.get(p);
        if (!pn) break;
        const pk = category(pn.callFrame.url, pn.callFrame.functionName);
        if (pk.startsWith('native: ') || pk === 'Node core (node:*)' || pk.startsWith('(program)')) continue;
        caller = pk;
        break;
      }
    }
    byCaller.set(caller, (byCaller.get(caller) ?? 0) + us / 1000);
  }
  // Native functions are many and small: one row for all but the largest.
  const rows = [...by].map(([k, us]): [string, number] => [k, us / 1000]).sort((a, b) => b[1] - a[1]);
  const merged: Array<[string, number]> = [];
  let otherNative = 0;
  for (const [k, ms] of rows) {
    if (k.startsWith('native: ') && ms < (total / 1000) * 0.01) otherNative += ms;
    else merged.push([k, ms]);
  }
  if (otherNative > 0) merged.push(['native: others (each < 1%)', otherNative]);
  return { totalMs: total / 1000, byCategory: merged.sort((a, b) => b[1] - a[1]), byCaller, file };
}

// ---------------------------------------------------------------------------------------------
// One run.

/** A statement of pg_stat_statements, or several whose first 100 characters agree (VALUES lists of other lengths). */
interface Statement {
  query: string;
  /** The full texts grouped here. */
  texts: string[];
  toplevel: boolean;
  calls: number;
  rows: number;
  totalMs: number;
  meanMs: number;
  walBytes: number;
}

interface RunResult {
  run: number;
  n: number;
  seconds: number;
  rate: number;
  completed: number;
  duplicates: number;
  failedRequests: number;
  statements: Statement[];
  roundTrips: number;
  clientQueries: number;
  xactCommit: number;
  xactRollback: number;
  byText: Map<string, StatementTiming>;
  walLsnBytes: number;
  wal: Record<string, number>;
  lockSamples: LockSamples | null;
  pool: ReturnType<ReturnType<typeof samplePools>['stop']>;
  poolMax: number | null;
  connectWaitsMs: number[];
  nodeCpuS: number;
  pgCpuS: number | null;
  cpu: CpuSummary | null;
}

const WAL_COLUMNS = ['wal_records', 'wal_fpi', 'wal_bytes', 'wal_buffers_full', 'wal_write', 'wal_sync'];

async function readWal(c: pg.Client): Promise<Record<string, number>> {
  const r = await c.query<Record<string, string>>(`select ${WAL_COLUMNS.join(', ')} from pg_stat_wal`);
  const row = r.rows[0] ?? {};
  return Object.fromEntries(WAL_COLUMNS.map((k) => [k, Number(row[k] ?? Number.NaN)]));
}

async function readXact(c: pg.Client, db: string): Promise<{ commit: number; rollback: number }> {
  const r = await c.query<{ c: string; r: string }>(
    'select xact_commit as c, xact_rollback as r from pg_stat_database where datname = $1',
    [db],
  );
  return { commit: Number(r.rows[0]?.c ?? Number.NaN), rollback: Number(r.rows[0]?.r ?? Number.NaN) };
}

async function runOnce(o: Options, cluster: ClusterInfo, run: number, log: (s: string) => void): Promise<RunResult> {
  const db = `aeq_prof_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: o.url });
  await admin.connect();
  await admin.query(`create database ${db}`);
  const u = new URL(o.url);
  u.pathname = `/${db}`;
  try {
    const dbOid = (await admin.query<{ oid: number }>('select oid from pg_database where datname = $1', [db])).rows[0]
      ?.oid;
    const seen = attemptLog();
    instr.pools.clear();
    const svc = await startBenchService({ noopConcurrency: o.concurrency, seen, databaseUrl: u.toString() });
    let stopped = false;
    try {
      const go = await submitAll(svc.url, o.tasks);
      // Every run starts after a checkpoint, so that the full-page images of the run compare across runs.
      await admin.query('checkpoint');
      await sleep(500);
      const sampler = o.sampleMs > 0 ? await startLockSampler(o.url, db, o.sampleMs) : null;
      let session: Session | null = null;
      if (o.cpuProf) {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 1000 });
      }
      const wal0 = await readWal(admin);
      const xact0 = await readXact(admin, db);
      const lsn0 = (await admin.query<{ l: string }>('select pg_current_wal_lsn()::text as l')).rows[0]!.l;
      await admin.query('select pg_stat_statements_reset()');
      const pgCpu0 = postgresCpu(cluster.postmasterPid);
      const pools = samplePools(2);
      instr.active = true;
      instr.queries = 0;
      instr.byText.clear();
      instr.connectWaitsMs.length = 0;
      if (session) await session.post('Profiler.start');
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const accepted = await go();
      await waitCompleted(svc.app, o.tasks, 120_000 + o.tasks * 5);
      const seconds = (performance.now() - t0) / 1000;
      const cpu1 = process.cpuUsage(cpu0);
      instr.active = false;
      const profile = session ? (await session.post('Profiler.stop')).profile : null;
      const pool = pools.stop();
      const pgCpu1 = postgresCpu(cluster.postmasterPid);
      const lsnBytes = Number(
        (
          await admin.query<{ d: string }>('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text as d', [
            lsn0,
          ])
        ).rows[0]!.d,
      );
      const st = await admin.query<{
        query: string;
        toplevel: boolean;
        calls: string;
        rows: string;
        total_exec_time: number;
        mean_exec_time: number;
        wal_bytes: string;
      }>(
        `select query, toplevel, calls, rows, total_exec_time, mean_exec_time, wal_bytes
           from pg_stat_statements where dbid = $1`,
        [dbOid],
      );
      const lockSamples = sampler ? await sampler.stop() : null;
      const stats = await svc.app.store.figures.stats({ notBefore: 0 });
      // Backends flush pg_stat_database / pg_stat_wal counters lazily (at most once a second, or at exit):
      // they are read after the service's pool has closed its connections.
      await svc.stop();
      stopped = true;
      await sleep(500);
      const wal1 = await readWal(admin);
      const xact1 = await readXact(admin, db);
      if (session) session.disconnect();
      let cpu: CpuSummary | null = null;
      if (profile) {
        const dir = path.resolve('.tmp/profiles');
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, `pg-profile-run${run}-${Date.now()}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
        cpu = summariseProfile(file, profile.nodes, profile.samples ?? [], profile.timeDeltas ?? []);
      }
      const grouped = new Map<string, Statement>();
      for (const row of st.rows) {
        const key = `${row.toplevel}|${shorten(row.query)}`;
        const g = grouped.get(key) ?? {
          query: shorten(row.query),
          texts: [],
          toplevel: row.toplevel,
          calls: 0,
          rows: 0,
          totalMs: 0,
          meanMs: 0,
          walBytes: 0,
        };
        g.texts.push(row.query);
        g.calls += Number(row.calls);
        g.rows += Number(row.rows);
        g.totalMs += row.total_exec_time;
        g.meanMs = g.calls ? g.totalMs / g.calls : 0;
        g.walBytes += Number(row.wal_bytes);
        grouped.set(key, g);
      }
      const statements = [...grouped.values()];
      const poolMax = [...instr.pools][0]?.options.max ?? null;
      const result: RunResult = {
        run,
        n: o.tasks,
        seconds,
        rate: o.tasks / seconds,
        completed: stats.tasks.COMPLETED,
        duplicates: seen.calls - seen.started.size,
        failedRequests: o.tasks - accepted,
        statements,
        roundTrips: statements.filter((s) => s.toplevel).reduce((a, s) => a + s.calls, 0),
        clientQueries: instr.queries,
        xactCommit: xact1.commit - xact0.commit,
        xactRollback: xact1.rollback - xact0.rollback,
        byText: new Map(instr.byText),
        walLsnBytes: lsnBytes,
        wal: Object.fromEntries(WAL_COLUMNS.map((k) => [k, (wal1[k] ?? 0) - (wal0[k] ?? 0)])),
        lockSamples,
        pool,
        poolMax,
        connectWaitsMs: [...instr.connectWaitsMs],
        nodeCpuS: (cpu1.user + cpu1.system) / 1e6,
        pgCpuS: cpuDelta(pgCpu0, pgCpu1),
        cpu,
      };
      log(`run ${run}: ${result.rate.toFixed(1)} tasks/s`);
      return result;
    } finally {
      instr.active = false;
      if (!stopped) await svc.stop();
    }
  } finally {
    await admin.query(`drop database if exists ${db} with (force)`);
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Markdown.

const f0 = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');
const cell = (s: string) => s.replace(/\|/g, '\\|');
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** A block of the markdown output, followed by a blank line. */
function say(s: string): void {
  console.log(`${s}\n`);
}

function table(head: string[], align: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/**
 * A statement's text with its constants and parameters blanked, as far as needed to match the client's text
 * with pg_stat_statements' (which replaces constants, e.g. the status literals of src/store/tasks, by $n).
 */
function normalise(sql: string): string {
  return sql
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$\d+/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\b(?:null|true|false)\b/gi, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The client's timing of a statement group: query() sent to answered, over the texts of the group. */
function clientTiming(r: RunResult, s: Statement): StatementTiming | null {
  const wanted = new Set(s.texts.map(normalise));
  let calls = 0;
  let ms = 0;
  for (const [t, c] of r.byText) {
    if (!wanted.has(normalise(t))) continue;
    calls += c.calls;
    ms += c.ms;
  }
  return calls ? { calls, ms } : null;
}

function statementRows(r: RunResult, list: Statement[]): string[][] {
  return list.map((s) => {
    const client = clientTiming(r, s);
    return [
      cell(s.query) + (s.toplevel ? '' : ' *(nested)*') + (s.texts.length > 1 ? ` *(${s.texts.length} texts)*` : ''),
      f0(s.calls),
      f3(s.calls / r.n),
      f2(s.calls ? s.rows / s.calls : Number.NaN),
      f3(s.meanMs),
      f0(s.totalMs),
      client ? f3(client.ms / client.calls) : '—',
      f0(s.walBytes / r.n),
    ];
  });
}

/** The claim as pg_stat_statements saw it: the top-level calls of aeq_claim_tasks, the rows (tasks) they returned. */
function claimStats(r: RunResult) {
  const calls = r.statements.filter((s) => s.toplevel && s.query.includes('aeq_claim_tasks('));
  const n = sum(calls.map((s) => s.calls));
  const ms = sum(calls.map((s) => s.totalMs));
  return { calls: n, perS: n / r.seconds, tasksPerCall: sum(calls.map((s) => s.rows)) / n, serverMs: ms / n };
}

function printRun(r: RunResult): void {
  const out: string[] = [];
  out.push(`### Run ${r.run}: ${f0(r.n)} no-op tasks`, '');
  out.push(
    table(
      ['figure', 'value'],
      ['---', '---:'],
      [
        ['tasks/s, submit to COMPLETED', f1(r.rate)],
        ['wall time', `${f2(r.seconds)} s`],
        [
          'completed / lost / duplicate attempts / refused',
          `${r.completed} / ${r.n - r.completed} / ${r.duplicates} / ${r.failedRequests}`,
        ],
        ['round trips per task (pg_stat_statements, top-level calls / N)', f2(r.roundTrips / r.n)],
        ['round trips per task (client: query() calls / N)', f2(r.clientQueries / r.n)],
        ['transactions per task (pg_stat_database xact_commit delta / N)', f2(r.xactCommit / r.n)],
        ['WAL bytes per task (pg_wal_lsn_diff / N)', f0(r.walLsnBytes / r.n)],
        ['WAL records per task (pg_stat_wal)', f2((r.wal.wal_records ?? 0) / r.n)],
        ['WAL full-page images per task (pg_stat_wal)', f3((r.wal.wal_fpi ?? 0) / r.n)],
        ['WAL bytes per task (pg_stat_wal)', f0((r.wal.wal_bytes ?? 0) / r.n)],
        ['WAL fsyncs per task (pg_stat_wal wal_sync)', f3((r.wal.wal_sync ?? 0) / r.n)],
        ['CPU of the Node process (service + bench client), cores', f2(r.nodeCpuS / r.seconds)],
        ['CPU of PostgreSQL (all processes of the cluster), cores', r.pgCpuS === null ? '—' : f2(r.pgCpuS / r.seconds)],
      ],
    ),
    '',
  );
  const top = r.statements.filter((s) => s.calls > 0);
  const head = ['statement', 'calls', 'calls/task', 'rows/call', 'mean ms', 'total ms', 'client ms', 'WAL B/task'];
  const align = ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'];
  out.push(
    'Top-level statements (round trips) by calls. Server: pg_stat_statements (exec time excludes the WAL flush of ' +
      'a COMMIT); *client ms*: query() sent to answered, mean; texts differing after 100 characters are grouped:',
    '',
  );
  const topLevel = top.filter((s) => s.toplevel).sort((a, b) => b.calls - a.calls);
  out.push(table(head, align, statementRows(r, topLevel.slice(0, 12))), '');
  out.push('All statements (nested ones too: inside the stored functions) by total execution time:', '');
  out.push(table(head, align, statementRows(r, [...top].sort((a, b) => b.totalMs - a.totalMs).slice(0, 12))), '');
  const c = claimStats(r);
  out.push('The claim (`aeq_claim_tasks`, one statement; its per-engine lock is taken inside it):', '');
  out.push(
    table(
      ['figure', 'value'],
      ['---', '---:'],
      [
        ['calls', f0(c.calls)],
        ['per second', f1(c.perS)],
        ['tasks claimed per call', f1(c.tasksPerCall)],
        ['server execution per call, mean ms', f3(c.serverMs)],
      ],
    ),
    '',
  );
  const s = r.lockSamples;
  if (s) {
    out.push(
      `pg_locks / pg_stat_activity sampler: ${f0(s.samples)} samples in ${f2(s.elapsedMs / 1000)} s ` +
        `(one per ${f2(s.elapsedMs / s.samples)} ms):`,
      '',
    );
    out.push(
      table(
        ['figure', 'value'],
        ['---', '---:'],
        [
          [`samples with \`aeq:claim:${NOOP_ENGINE}\` held`, pct(s.claimHeld / s.samples)],
          [
            `samples with a waiter on \`aeq:claim:${NOOP_ENGINE}\` (max waiters)`,
            `${pct(s.claimWaited / s.samples)} (${s.claimMaxWaiters})`,
          ],
        ],
      ),
      '',
    );
    out.push("What the service's backends were doing (share of backend-samples):", '');
    out.push(
      table(
        ['state / wait event', 'share'],
        ['---', '---:'],
        Object.entries(s.activity)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [cell(k), pct(v / s.backendSamples)]),
      ),
      '',
    );
  }
  const p = r.pool;
  const w = r.connectWaitsMs;
  out.push(
    `Pool (pg.Pool of the service, max ${r.poolMax ?? '?'}; wrapped connect(), counters sampled every 2 ms):`,
    '',
  );
  out.push(
    table(
      ['figure', 'value'],
      ['---', '---:'],
      [
        ['samples', f0(p.samples)],
        ['samples with callers waiting for a connection', pct(p.withWaiters / p.samples)],
        ['waiting callers, mean / max', `${f2(p.sumWaiting / p.samples)} / ${p.maxWaiting}`],
        ['samples with no idle connection', pct(p.noIdle / p.samples)],
        ['connections open, mean / max', `${f1(p.sumTotal / p.samples)} / ${p.maxTotal}`],
        ['connect() calls per task', f2(w.length / r.n)],
        [
          'connect() wait, mean / p50 / p99 / max ms',
          `${f3(mean(w))} / ${f3(percentile(w, 50))} / ${f3(percentile(w, 99))} / ${f3(Math.max(...w))}`,
        ],
        ['connect() waits over 1 ms', pct(w.filter((x) => x > 1).length / w.length)],
        ['connect() wait, total per task ms', f3(sum(w) / r.n)],
      ],
    ),
    '',
  );
  if (r.cpu) {
    out.push(
      `CPU profile of the Node process's main thread over the run (${f1(r.cpu.totalMs / 1000)} s sampled), self time:`,
      '',
    );
    out.push(
      table(
        ['category', 'self ms', 'share'],
        ['---', '---:', '---:'],
        r.cpu.byCategory.map(([k, ms]) => [cell(k), f0(ms), pct(ms / r.cpu!.totalMs)]),
      ),
      '',
    );
    out.push(
      'The same, with the time of native and Node-core frames (writev, streams, timers, microtasks) charged to ' +
        'the nearest caller of another category:',
      '',
    );
    out.push(
      table(
        ['category (caller)', 'ms', 'share'],
        ['---', '---:', '---:'],
        [...r.cpu.byCaller]
          .sort((a, b) => b[1] - a[1])
          .filter(([, ms]) => ms >= r.cpu!.totalMs * 0.005)
          .map(([k, ms]) => [cell(k), f0(ms), pct(ms / r.cpu!.totalMs)]),
      ),
      '',
    );
    const summary = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../profile-summary.ts', import.meta.url)), r.cpu.file, '15'],
      { encoding: 'utf8' },
    );
    out.push(`bench/profile-summary.ts ${path.relative(process.cwd(), r.cpu.file)} 15:`, '', summary.stdout.trim(), '');
  }
  say(out.join('\n'));
}

function printMedians(rs: RunResult[]): void {
  const row = (name: string, f: (r: RunResult) => number, fmt: (x: number) => string): string[] => {
    const xs = rs.map(f);
    return [name, ...xs.map(fmt), fmt(median(xs)), `${fmt(Math.min(...xs))} – ${fmt(Math.max(...xs))}`];
  };
  const samples = (r: RunResult, k: (s: LockSamples) => number) => (r.lockSamples ? k(r.lockSamples) : Number.NaN);
  say(`### ${rs.length} runs, ${f0(rs[0]?.n ?? 0)} tasks each: medians`);
  say(
    table(
      ['figure', ...rs.map((r) => `run ${r.run}`), 'median', 'spread (min – max)'],
      ['---', ...rs.map(() => '---:'), '---:', '---:'],
      [
        row('tasks/s', (r) => r.rate, f1),
        row('round trips / task (pg_stat_statements)', (r) => r.roundTrips / r.n, f2),
        row('transactions / task (xact_commit)', (r) => r.xactCommit / r.n, f2),
        row('WAL bytes / task (LSN diff)', (r) => r.walLsnBytes / r.n, f0),
        row('WAL records / task', (r) => (r.wal.wal_records ?? 0) / r.n, f2),
        row('WAL FPIs / task', (r) => (r.wal.wal_fpi ?? 0) / r.n, f3),
        row('WAL fsyncs / task', (r) => (r.wal.wal_sync ?? 0) / r.n, f3),
        row('claims / s', (r) => claimStats(r).perS, f1),
        row('tasks per claim', (r) => claimStats(r).tasksPerCall, f1),
        row('claim, server execution per call, ms', (r) => claimStats(r).serverMs, f3),
        row('claim lock held, share of samples (pg_locks)', (r) => samples(r, (s) => s.claimHeld / s.samples), pct),
        row('claim lock waited on, share of samples', (r) => samples(r, (s) => s.claimWaited / s.samples), pct),
        row('pool: samples with waiters', (r) => r.pool.withWaiters / r.pool.samples, pct),
        row('pool: max waiters', (r) => r.pool.maxWaiting, f0),
        row('pool: connect() wait, mean ms', (r) => mean(r.connectWaitsMs), f3),
        row('Node CPU, cores', (r) => r.nodeCpuS / r.seconds, f2),
        row('PostgreSQL CPU, cores', (r) => (r.pgCpuS === null ? Number.NaN : r.pgCpuS / r.seconds), f2),
      ],
    ),
  );
}

function printRoundTripsByStatement(rs: RunResult[]): void {
  const perRun = rs.map((r) => new Map(r.statements.filter((s) => s.toplevel).map((s) => [s.query, s.calls / r.n])));
  const names = [...new Set(perRun.flatMap((m) => [...m.keys()]))]
    .map((q): [string, number] => [q, median(perRun.map((m) => m.get(q) ?? 0))])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  say('Round trips per task by statement (top-level calls / N):');
  say(
    table(
      ['statement', ...rs.map((r) => `run ${r.run}`), 'median'],
      ['---', ...rs.map(() => '---:'), '---:'],
      names.map(([q, m]) => [cell(q), ...perRun.map((x) => f3(x.get(q) ?? 0)), f3(m)]),
    ),
  );
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const cluster = await checkCluster(o.url);
  instrumentPg();
  const log = (s: string) => console.error(`[pg-profile] ${s}`);
  say(`## PostgreSQL profile of the dispatch workload (bench/investigations/pg-profile.ts)`);
  say(
    `${f0(o.tasks)} no-op tasks per run, concurrency ${o.concurrency}, batches of 500 over HTTP (two in flight), ` +
      `${o.runs} runs; cluster ${o.url.replace(/\/\/[^@]*@/, '//')}: ${cluster.version.split(' on ')[0]}.`,
  );
  say(
    table(
      ['setting', 'value'],
      ['---', '---'],
      cluster.settings.map(([k, v]) => [k, v]),
    ),
  );
  const results: RunResult[] = [];
  for (let run = 1; run <= o.runs; run++) {
    log(`run ${run}/${o.runs}: ${o.tasks} tasks`);
    const r = await runOnce(o, cluster, run, log);
    printRun(r);
    results.push(r);
  }
  if (results.length > 1) {
    printMedians(results);
    printRoundTripsByStatement(results);
  }
}

await main();
