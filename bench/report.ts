import fs from 'node:fs';
import { ratio, targetLabel, type Figure } from './figures.js';
import type { BenchReport } from './harness.js';
import { round } from './stats.js';

export const START_MARK = '<!-- bench:results:start (written by `npm run bench`; edit outside these marks) -->';
export const END_MARK = '<!-- bench:results:end -->';

function fmt(n: number, unit: string): string {
  if (!Number.isFinite(n)) return 'n/a';
  // Small rates (pages/s) keep their decimals.
  return unit === 'ms' || Math.abs(n) < 10 ? round(n, 2).toString() : Math.round(n).toLocaleString('en-US');
}

function verdict(f: Figure): string {
  if (f.met === null) return '';
  return f.met ? 'met' : '**not met yet**';
}

/** The generated section: run header, figures with baseline ratios and target verdicts, integrity checks. */
export function renderResults(r: BenchReport): string {
  const m = r.machine;
  const lines = [
    `Run of ${r.startedAt.toISOString()} (${round(r.seconds, 0)} s), ` +
      `command \`${r.command}\`${r.config.quick ? ' (quick mode: small N, figures indicative only)' : ''}.`,
    '',
    `Machine: nproc ${m.nproc} (${m.cpu}), memory ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}. Store: ` +
      `embedded SQLite unless the scenario says PostgreSQL. Load generator: autocannon in a separate process.`,
    '',
    `Each figure is the median of ${r.config.runs} runs of ${r.config.durationS} s (HTTP scenarios; ` +
      `service and baseline interleaved), of ${r.config.dispatchRuns} runs (dispatch, webhooks) or of ` +
      `${r.config.rounds} interleaved round${r.config.rounds > 1 ? 's' : ''} (comparison, scale-out, recovery); ` +
      'the individual runs are listed, in order.',
    '',
    '| Scenario | Metric | Median | Runs | Baseline (same run) | Ratio | Target | Verdict |',
    '|---|---|---:|---|---|---:|---|---|',
  ];
  for (const f of r.figures) {
    const q = ratio(f);
    lines.push(
      `| ${f.scenario} | ${f.metric} | ${fmt(f.value, f.unit)} ${f.unit} ` +
        `| ${f.runs.map((x) => fmt(x, f.unit)).join(', ')} ` +
        `| ${f.baseline ? `${f.baseline.name}: ${fmt(f.baseline.value, f.unit)}` : ''} ` +
        `| ${q === null ? '' : `${round(q * 100, 0)}%`} | ${targetLabel(f.target)} | ${verdict(f)} |`,
    );
  }
  lines.push(
    '',
    '| Integrity check | Expected | Observed | Failed requests | Lost | Duplicates |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const i of r.integrity)
    lines.push(`| ${i.scenario} | ${i.expected} | ${i.observed} | ${i.failedRequests} | ${i.lost} | ${i.duplicates} |`);
  return lines.join('\n');
}

/** Replaces the generated section of the document (or appends one), leaving the hand-written parts alone. */
export function writeResults(file: string, r: BenchReport): void {
  const section = `${START_MARK}\n${renderResults(r)}\n${END_MARK}`;
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = old.indexOf(START_MARK);
  const b = old.indexOf(END_MARK);
  const next =
    a !== -1 && b > a ? old.slice(0, a) + section + old.slice(b + END_MARK.length) : `${old.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}
