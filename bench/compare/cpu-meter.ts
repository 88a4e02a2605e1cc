import fs from 'node:fs';

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

/** Linux's clock tick for /proc's times (`getconf CLK_TCK` is 100 on every kernel configuration Debian ships). */
const TICK_US = 10_000;

/** Busy time of the whole machine from /proc/stat's first line: every field but idle and iowait. */
function machineBusyUs(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
  return (user + nice + system + irq + softirq + steal) * TICK_US;
}

/**
 * CPU time of the live processes whose command is `postgres` or `redis-server`, from /proc/PID/stat (utime and stime;
 * the command is in parentheses and may hold spaces, so the fields are read after its closing one). A process that
 * exits within the run takes its time with it: the runs keep their connections open until the meter is read.
 */
function serverUs(): { postgres: number; redis: number } {
  let postgres = 0;
  let redis = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(open + 1, close);
    if (comm !== 'postgres' && comm !== 'redis-server') continue;
    // After ") ": state is field 3; utime and stime are fields 14 and 15.
    const rest = stat.slice(close + 2).split(' ');
    const us = (Number(rest[11]) + Number(rest[12])) * TICK_US;
    if (comm === 'postgres') postgres += us;
    else redis += us;
  }
  return { postgres, redis };
}

function sample(): CpuUse {
  const u = process.cpuUsage();
  return { machine: machineBusyUs(), node: u.user + u.system, ...serverUs() };
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
