import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Linux's clock ticks per second, the unit of /proc's CPU times. */
const CLOCK_TICKS_PER_S = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** What /proc/PID/stat says of a process: its command, its parent, and its user + system CPU time so far. */
export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  cpuMs: number;
}

/** Busy time of the whole machine so far, in ms, from /proc/stat's first line: every field but idle and iowait. */
export function machineBusyMs(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS_PER_S;
}

/** One process's stat, or null when it is gone. */
export function procStat(pid: number): ProcStat | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command is in parentheses and may hold spaces and parentheses: the fields follow its last ')'. After it,
  // state is the 1st, ppid the 2nd, utime and stime the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    ppid: Number(fields[1]),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S,
  };
}

/** Every live process's stat (a process that ends while they are read is left out). */
export function allProcStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const s = procStat(Number(d));
    if (s) out.push(s);
  }
  return out;
}
