import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createThrowawayDatabase } from '../compare/throwaway-db.js';
import { serviceProcessArgs, TSX_ENTRY_ARGS } from '../scenarios/compiled-process.js';
import { childEnv, startChild, type Child } from '../scenarios/scaleout.js';

/**
 * How long the recovery scenario's service process (bench/scenarios/scaleout-process.ts) takes from its spawn to its
 * `ready` (after the listen): an API process alone, a worker alone, and one API and two workers started at once as in
 * the restart of recovery-all; on one fresh PostgreSQL database, migrated first, rounds alternating between the forms.
 *
 *   npx tsx bench/investigations/process-start.ts [--reps=3] [FORM...]
 *
 * A FORM is `tsx` (this tree's sources under tsx), `dist` (this tree's build, made first: compiled-process.ts), a path
 * to another tree's compiled entry (its `.tmp/bench-build/scaleout-process.js`, after a recovery-all run there), or
 * `tsx:PATH` for another tree's `bench/scenarios/scaleout-process.ts` under tsx. Default: `tsx dist`.
 */

const args = process.argv.slice(2);
const reps = Number(args.find((a) => a.startsWith('--reps='))?.slice('--reps='.length) ?? 3);
const forms = args.filter((a) => !a.startsWith('--'));
if (forms.length === 0) forms.push('tsx', 'dist');

async function nodeArgsOf(form: string): Promise<readonly string[]> {
  if (form === 'tsx') return TSX_ENTRY_ARGS;
  if (form === 'dist') return serviceProcessArgs(false);
  if (form.startsWith('tsx:')) return ['--import', 'tsx', path.resolve(form.slice('tsx:'.length))];
  return [path.resolve(form)];
}

const nodeArgs = await Promise.all(forms.map(nodeArgsOf));
const db = await createThrowawayDatabase('aeq_bench_start');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-start-'));
let made = 0;
const env = () => ({ ...childEnv(dataDir, `p${made++}`, db.url, 128, 'warn'), BENCH_NOOP_DELAY_MS: '1000' });
const timed = async (role: 'api' | 'worker', a: readonly string[]): Promise<[number, Child]> => {
  const t0 = performance.now();
  const c = await startChild(role, env(), undefined, a);
  return [(performance.now() - t0) / 1000, c];
};
const runs = new Map<string, number[]>();
const add = (key: string, s: number) => runs.set(key, [...(runs.get(key) ?? []), s]);
try {
  // The migrations, once, so that no measured start applies them.
  const [, first] = await timed('api', nodeArgs[0]!);
  await first.stop();
  for (let r = 0; r < reps; r++) {
    for (const [i, a] of nodeArgs.entries()) {
      const form = forms[i]!;
      const [api, ca] = await timed('api', a);
      await ca.stop();
      const [worker, cw] = await timed('worker', a);
      await cw.stop();
      const all = await Promise.all([timed('api', a), timed('worker', a), timed('worker', a)]);
      await Promise.all(all.map(([, c]) => c.stop()));
      add(`${form}: an API process alone`, api);
      add(`${form}: a worker alone`, worker);
      add(`${form}: the API, started with two workers`, all[0][0]);
      add(`${form}: the later of two workers, started with the API`, Math.max(all[1][0], all[2][0]));
    }
  }
} finally {
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
console.log(
  `spawn to ready, s (load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}):`,
);
for (const [key, xs] of runs)
  console.log(`  ${key}: median ${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(', ')})`);
