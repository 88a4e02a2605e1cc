import { allProcStats, machineBusyMs } from '../proc-stat.js';

/**
 * CPU time spent over a run, in microseconds: the whole machine's busy time (every process, the kernel's included),
 * and the part of it in this process (the system under test runs in the bench process: aeq's API and worker, or the
 * library's client and worker), in PostgreSQL's processes and in Redis's. A rate tells how fast a system went; its CPU
 * per task tells how fast it could go on this machine with every core busy (cores / CPU per task), which is the limit
 * a comparison on a loaded two-core machine has to be read against.
 */
export interface CpuUse {
  machine: number;
  node: number;
  postgres: number;
  redis: number;
}

/**
 * CPU time of the live processes whose command is `postgres` or `redis-server`. A process that exits within the run
 * takes its time with it: the runs keep their connections open until the meter is read.
 */
function serverUs(): { postgres: number; redis: number } {
  let postgres = 0;
  let redis = 0;
  for (const p of allProcStats()) {
    if (p.comm === 'postgres') postgres += p.cpuMs * 1000;
    else if (p.comm === 'redis-server') redis += p.cpuMs * 1000;
  }
  return { postgres, redis };
}

function sample(): CpuUse {
  const u = process.cpuUsage();
  return { machine: machineBusyMs() * 1000, node: u.user + u.system, ...serverUs() };
}

/** Starts measuring; the function returned gives the CPU time spent since. */
export function startCpuMeter(): () => CpuUse {
  const a = sample();
  return () => {
    const b = sample();
    return {
      machine: b.machine - a.machine,
      node: b.node - a.node,
      postgres: b.postgres - a.postgres,
      redis: b.redis - a.redis,
    };
  };
}

/** CPU per task in microseconds, each part divided by `n`. */
export function perTask(c: CpuUse, n: number): CpuUse {
  return { machine: c.machine / n, node: c.node / n, postgres: c.postgres / n, redis: c.redis / n };
}
