import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench, SCENARIOS, type ScenarioName } from './harness.js';
import { renderResults, writeResults } from './report.js';

/**
 * `npm run bench [-- --quick]
 *   [--only=submit,batch,poll,dispatch,webhooks,growth,parse,read,compare,scaleout,recovery,recovery-all]
 * [--rounds=N] [--scaleout-tasks=N] [--recovery-tasks=N] [--read-pages=N] [--out=FILE | --no-write] [--no-baseline]`
 * Runs the scenarios and writes the results section of docs/benchmarks.md. `--rounds`: interleaved rounds of
 * the comparison, page-read, scale-out and recovery scenarios (default 3, quick mode 1). Quick mode leaves out the
 * page-read, scale-out and recovery scenarios unless named in `--only`. `--read-pages`: pages of the web corpus each
 * side of the page-read scenario reads per round, spread evenly over it (default all; quick mode 40).
 */
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const only = onlyArg ? (onlyArg.split(',') as ScenarioName[]) : undefined;
for (const s of only ?? [])
  if (!SCENARIOS.includes(s)) throw new Error(`unknown scenario ${s}; known: ${SCENARIOS.join(', ')}`);
/** A positive integer flag `--name=N`, or undefined when absent. */
function intFlag(name: string): number | undefined {
  const raw = args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return v;
}
const rounds = intFlag('rounds');
const scaleoutTasks = intFlag('scaleout-tasks');
const recoveryTasks = intFlag('recovery-tasks');
const readPages = intFlag('read-pages');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out =
  args.find((a) => a.startsWith('--out='))?.slice('--out='.length) ?? path.join(root, 'docs', 'benchmarks.md');
const command = ['npm run bench', ...(args.length ? ['--', ...args] : [])].join(' ');

const report = await runBench({
  quick,
  command,
  baseline: !args.includes('--no-baseline'),
  ...(only ? { only } : {}),
  ...(rounds ? { rounds } : {}),
  ...(scaleoutTasks ? { scaleoutTasks } : {}),
  ...(recoveryTasks ? { recoveryTasks } : {}),
  ...(readPages ? { readPages } : {}),
  log: (s) => console.error(`[bench] ${s}`),
});
console.log(renderResults(report));
if (!args.includes('--no-write')) {
  writeResults(out, report);
  console.error(`[bench] results written to ${out}`);
}
