import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadServiceConfig } from '../../src/config/engine-config.js';
import { loadSettings } from '../../src/config/settings.js';
import { ALL_TASK_TYPES } from '../../src/domain/engine-catalog.js';
import { BENCH_INTERNAL_TOKEN, BENCH_KEY } from '../service.js';

/**
 * The growth scenario's service as its own OS process (`aeq serve`), so that its memory can be
 * read from /proc without the bench's own heap, tsx and load-generator control code in it.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
/** How much of the child's output is kept, to explain an unexpected exit. */
const OUTPUT_TAIL_CHARS = 4_000;

/**
 * How the child is started: the built service (full mode) or the TypeScript sources under tsx (quick mode, no
 * build).
 */
export interface ServiceCommand {
  args: string[];
  /** Names the measured process in the figures. */
  label: string;
}

export function serviceCommand(quick: boolean): ServiceCommand {
  return quick
    ? {
        args: ['--import', 'tsx', 'src/cli/main.ts', 'serve'],
        label: 'service process (node --import tsx src/cli/main.ts; quick mode, so its RSS includes tsx)',
      }
    : { args: ['dist/cli/main.js', 'serve'], label: 'service process (node dist/cli/main.js)' };
}

let built: Promise<void> | null = null;

/** `npm run build` (tsc -p tsconfig.build.json) once per bench run, so that the full run measures dist/ as deployed. */
export function buildService(): Promise<void> {
  built ??= runBuild();
  return built;
}

async function runBuild(): Promise<void> {
  const child = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = tail(child);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`npm run build exited with ${code}:\n${output()}`);
}

/**
 * Writes the service's config (every engine paused: the API path only) into `dataDir`; returns the environment that
 * points at it.
 */
export function serviceEnv(dataDir: string): Record<string, string> {
  const engines: Record<string, unknown> = {};
  for (const t of ALL_TASK_TYPES) engines[t] = { paused: true };
  const configPath = path.join(dataDir, 'config.json');
  // As startBenchService writes it (bench/service.ts), so that both services run the same configuration.
  fs.writeFileSync(
    configPath,
    JSON.stringify({
      scheduler: { pollMs: 250 },
      engines,
      exitAddresses: [{ id: 'bench-direct', country: 'US', maxConcurrent: 100_000 }],
    }),
  );
  return {
    AEQ_API_KEY: BENCH_KEY,
    AEQ_INTERNAL_TOKEN: BENCH_INTERNAL_TOKEN,
    AEQ_DATA_DIR: dataDir,
    AEQ_CONFIG: configPath,
    AEQ_LOG_LEVEL: 'warn',
  };
}

/** The settings and scheduler ageing the child will derive from `env`, for opening the same store from the bench. */
export function storeOptionsOf(env: Record<string, string>): { file: string; agingMs: number; retentionMs: number } {
  const settings = loadSettings(env);
  return {
    file: path.join(settings.dataDir, 'aeq.sqlite'),
    agingMs: loadServiceConfig(settings).scheduler.agingMs,
    retentionMs: settings.retentionMs,
  };
}

/** A port that was free a moment ago (the OS picks it); the child binds it right after. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port assigned');
  return address.port;
}

function tail(child: ChildProcess): () => string {
  let kept = '';
  const keep = (chunk: Buffer) => {
    kept = (kept + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => kept;
}

export interface ServiceProcess {
  pid: number;
  url: string;
  /** SIGTERM (the service drains and exits), then waits for the exit; SIGKILL if it has not exited in 20 s. */
  stop(): Promise<void>;
}

/** Starts `aeq serve` on `env` (plus a free PORT) and waits until GET /ready answers 200. */
export async function startServiceProcess(cmd: ServiceCommand, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const base = { ...process.env };
  // The child must use the embedded SQLite store of `env`, 127.0.0.1 and plain node options, whatever the bench was
  // started with.
  for (const k of Object.keys(base))
    if (k.startsWith('AEQ_') || ['DATABASE_URL', 'HOST', 'NODE_OPTIONS'].includes(k)) delete base[k];
  // Profiling the service processes (`AEQ_BENCH_CPU_PROF=dir`): each writes its profile into a folder named after
  // its data dir when it exits.
  const profDir = process.env.AEQ_BENCH_CPU_PROF;
  const prof =
    profDir && env.AEQ_DATA_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir, path.basename(env.AEQ_DATA_DIR))}`]
      : [];
  const child = spawn(process.execPath, [...prof, ...cmd.args], {
    cwd: ROOT,
    env: { ...base, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = tail(child);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
    // Spawn failures emit 'error' and no 'exit'.
    child.once('error', (e) => resolve(e.message));
  });
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const stop = async () => {
    if (gone) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (gone) throw new Error(`the service exited before it was ready (${await exited}):\n${output()}`);
      if (Date.now() > deadline)
        throw new Error(`the service was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`);
      const status = await fetch(`${url}/ready`).then(
        (r) => r.text().then(() => r.status),
        () => 0,
      );
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  if (child.pid === undefined) throw new Error('the service process has no pid');
  return { pid: child.pid, url, stop };
}

/**
 * VmRSS (resident now), VmHWM (peak resident since the process started) and what VmRSS is made
 * of: anonymous pages (heap, SQLite's page cache, the allocator's arenas) and file pages (the
 * mapped binaries), from /proc/<pid>/status, in MB.
 */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number; anonMb: number; fileMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(m[1]);
  };
  return {
    rssMb: kb('VmRSS') / 1024,
    hwmMb: kb('VmHWM') / 1024,
    anonMb: kb('RssAnon') / 1024,
    fileMb: kb('RssFile') / 1024,
  };
}

/**
 * What rssSampler returns: the max VmRSS seen, its anonymous and file parts at that moment, and the VmHWM at the
 * stop.
 */
export interface RssPeak {
  maxRssMb: number;
  anonAtMaxMb: number;
  fileAtMaxMb: number;
  hwmMb: number;
}

/** Reads the process's memory every `everyMs` until stopped. */
export function rssSampler(pid: number, everyMs: number): { stop(): RssPeak } {
  let peak = memoryOf(pid);
  let failure: unknown = null;
  const sample = () => {
    const m = memoryOf(pid);
    if (m.rssMb > peak.rssMb) peak = m;
    return m;
  };
  const timer = setInterval(() => {
    // A throw here would be uncaught: kept and raised by stop() (the process exited under load).
    try {
      sample();
    } catch (e) {
      failure ??= e;
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      if (failure !== null) throw failure;
      const last = sample();
      return { maxRssMb: peak.rssMb, anonAtMaxMb: peak.anonMb, fileAtMaxMb: peak.fileMb, hwmMb: last.hwmMb };
    },
  };
}

/**
 * Reads the service's V8 heap (`nodejs_heap_size_total_bytes` of GET /metrics, with the internal token)
 * every `everyMs` until stopped; returns the max seen, in MB. One small request a second beside a
 * load of thousands: it tells whether a peak of VmRSS is the JavaScript heap or memory outside it.
 */
export function heapSampler(url: string, everyMs: number): { stop(): Promise<number> } {
  let max = 0;
  let failure: unknown = null;
  let inFlight: Promise<void> = Promise.resolve();
  const read = async () => {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${BENCH_INTERNAL_TOKEN}` } });
    const text = await res.text();
    const m = /^nodejs_heap_size_total_bytes (\d+)/m.exec(text);
    if (res.status !== 200 || !m)
      throw new Error(`GET /metrics answered ${res.status} without nodejs_heap_size_total_bytes`);
    max = Math.max(max, Number(m[1]) / 2 ** 20);
  };
  const timer = setInterval(() => {
    inFlight = read().catch((e: unknown) => {
      failure ??= e;
    });
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      await read();
      if (failure !== null) throw failure;
      return max;
    },
  };
}
