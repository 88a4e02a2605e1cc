import { duration } from './progress.js';
import type { StudyReport } from './runner.js';

export interface StudySummary {
  tasks: number;
  completed: number;
  failed: number;
  /** Tasks not ended: in flight (an interrupted run) or refused for now. */
  pending: number;
  /** Tasks the service refused for now (a re-run submits them), and their codes. */
  deferred: number;
  deferredCodes: Array<{ code: string; count: number }>;
  resumed: number;
  submitted: number;
  elapsedMs: number;
  interrupted: boolean;
  simulated: boolean;
  engines: Array<{ engine: string; completed: number; failed: number }>;
  /** Codes of the tasks that did not complete, most frequent first (at most ten). */
  failureCodes: Array<{ code: string; count: number }>;
}

export function summarize(r: StudyReport, simulated: boolean): StudySummary {
  const engines = new Map<string, { engine: string; completed: number; failed: number }>();
  const codes = new Map<string, number>();
  for (const item of r.items)
    if (!engines.has(item.engine)) engines.set(item.engine, { engine: item.engine, completed: 0, failed: 0 });
  let completed = 0;
  for (const line of r.results.values()) {
    const e = engines.get(line.study.engine);
    if (line.status === 'COMPLETED') {
      completed++;
      if (e) e.completed++;
      continue;
    }
    if (e) e.failed++;
    const base = /^([A-Z][A-Z0-9_]*)/.exec(line.error ?? '')?.[1] ?? line.status;
    // The contract's code says little (ENGINE_FAILED); the reason beside it says what to do.
    const code = line.failure?.code ? `${base} (${line.failure.code})` : base;
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  return {
    tasks: r.items.length,
    completed,
    failed: r.results.size - completed,
    pending: r.items.length - r.results.size,
    deferred: [...r.deferred.values()].reduce((a, b) => a + b, 0),
    deferredCodes: [...r.deferred.entries()].map(([code, count]) => ({ code, count })),
    resumed: r.resumed,
    submitted: r.submitted,
    elapsedMs: r.elapsedMs,
    interrupted: r.interrupted,
    simulated,
    engines: [...engines.values()],
    failureCodes: [...codes.entries()]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
      .slice(0, 10),
  };
}

/** The summary as a reader wants it at the end of a run. */
export function summaryText(s: StudySummary, files: string[]): string {
  const head = s.interrupted
    ? `study interrupted after ${duration(s.elapsedMs / 1000)}: ${s.tasks - s.pending} of ${s.tasks} tasks done; ` +
      'run the same command again to resume'
    : `study ${s.deferred > 0 ? 'incomplete' : 'finished'} in ${duration(s.elapsedMs / 1000)}: ` +
      `${s.tasks} tasks, ${s.completed} completed, ${s.failed} failed`;
  const lines = [head];
  if (s.deferred > 0)
    lines.push(
      `refused for now: ${s.deferred} tasks (${s.deferredCodes.map((c) => `${c.code} ${c.count}`).join(', ')}); ` +
        'run the same command again later to submit them',
    );
  if (s.resumed > 0)
    lines.push(`resumed: ${s.resumed} results were already written, ${s.submitted} tasks submitted now`);
  if (s.simulated) lines.push('sandbox: every answer comes from simulated upstreams');
  lines.push(`results: ${files.join(', ')}`, '');
  const width = Math.max(6, ...s.engines.map((e) => e.engine.length));
  lines.push(`${'engine'.padEnd(width)}  completed  failed`);
  for (const e of s.engines)
    lines.push(`${e.engine.padEnd(width)}  ${String(e.completed).padStart(9)}  ${String(e.failed).padStart(6)}`);
  if (s.failureCodes.length > 0) {
    lines.push('', 'top failure codes:');
    for (const f of s.failureCodes) lines.push(`  ${f.code.padEnd(width)}  ${f.count}`);
  }
  return `${lines.join('\n')}\n`;
}
