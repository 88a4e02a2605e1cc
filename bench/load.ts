import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { procStat } from './proc-stat.js';

/** One autocannon run: fixed request (or rotating paths) for a fixed duration. */
export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationS: number;
  /** JSON file holding an array of paths to rotate over, instead of the URL's own path. */
  pathsFile?: string;
}

export interface LoadResult {
  /**
   * CPU time of the server's process (user + system) during the run: the bench process itself, or the service's own
   * process.
   */
  serverCpuMs: number;
  /** CPU time of the load generator's process during the run. */
  loadCpuMs: number;
  wallMs: number;
  requestsPerS: number;
  total: number;
  p50Ms: number;
  p99Ms: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
}

/** What the load generator itself measures; the parent adds the server's CPU time and the wall time. */
export type LoadClientResult = Omit<LoadResult, 'serverCpuMs' | 'wallMs'>;

type Reply = { id: number; result?: LoadClientResult; error?: string; ready?: boolean };

/** Requests per CPU-second of the server's process, run by run. */
export function requestsPerCpuSecond(rs: LoadResult[]): number[] {
  return rs.map((r) => r.total / (r.serverCpuMs / 1000));
}

/** User + system CPU time of a process so far, from /proc (this process: process.cpuUsage, finer grained). */
export function cpuMsOf(pid: number): number {
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  const s = procStat(pid);
  if (!s) throw new Error(`process ${pid} is gone: no /proc/${pid}/stat`);
  return s.cpuMs;
}

/** A long-lived load-generator child process (started once per bench run). */
export class LoadGenerator {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: (r: LoadClientResult) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: Reply) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.result) w.resolve(m.result);
      else w.reject(new Error(m.error ?? 'load generator failed'));
    });
    child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`load generator exited (${code})`));
      this.waiting.clear();
    });
  }

  static async start(): Promise<LoadGenerator> {
    const file = fileURLToPath(new URL('./load-client.ts', import.meta.url));
    // Explicit execArgv: the child is never profiled along with the service (--cpu-prof on the parent).
    const child = fork(file, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`load generator exited at start (${code})`)));
    });
    return new LoadGenerator(child);
  }

  /**
   * Runs one load; `serverPid` is the process whose CPU time is charged to the server (default: this one, which
   * hosts the in-process service and the bare server).
   */
  async run(job: LoadJob, serverPid = process.pid): Promise<LoadResult> {
    const id = ++this.seq;
    const cpuBefore = cpuMsOf(serverPid);
    const t0 = performance.now();
    const r = await new Promise<LoadClientResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, job });
    });
    return { ...r, serverCpuMs: cpuMsOf(serverPid) - cpuBefore, wallMs: performance.now() - t0 };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill();
    await exited;
  }
}
