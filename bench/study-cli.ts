/**
 * Wall time of a 300-task study (100 prompts × CHATBOT_A, SEARCH_A, ANSWER_ENGINE_A) with `aeq run --sandbox`,
 * from the command's start to its exit, against a baseline in the same run: the same 300 tasks through the typed
 * client alone (one submitBatch, then waitFor with per-task polling) in a process that starts the same embedded
 * sandbox. Runs are interleaved, each with a fresh store. Needs `npm run build` first (it runs the built command).
 *
 *   npm run build && npx tsx bench/study-cli.ts [runs]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 3);
const ENGINES = ['CHATBOT_A', 'SEARCH_A', 'ANSWER_ENGINE_A'];

const baseline = `
import { connect } from ${JSON.stringify(path.join(ROOT, 'dist/cli/connection.js'))};
import fs from 'node:fs';
const prompts = fs.readFileSync('prompts.txt', 'utf8').split('\\n').filter(Boolean);
const c = await connect({ sandbox: true, sandboxDir: '.aeq-sandbox' });
const engines = ${JSON.stringify(ENGINES)};
const items = prompts.flatMap((prompt) => engines.map((taskType) => ({ taskType, payload: { prompt } })));
const { results } = await c.client.submitBatch(items);
const ids = results.map((r) => r.task.id);
const done = await c.client.waitFor(ids, { pollInterval: 200, maxPollInterval: 1000 });
const lines = [...done.values()].map((v) => JSON.stringify(v)).join('\\n');
fs.writeFileSync('baseline.jsonl', lines + '\\n');
await c.close();
`;

function timed(cmd: string[], cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(cmd[0] as string, cmd.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const cli: number[] = [];
const sdk: number[] = [];
for (let i = 0; i < runs; i++) {
  for (const kind of ['cli', 'sdk'] as const) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `aeq-study-bench-${kind}-`));
    const prompts = Array.from({ length: 100 }, (_, k) => `running shoes for trail and road, question ${k + 1}`);
    fs.writeFileSync(path.join(dir, 'prompts.txt'), `${prompts.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'baseline.mjs'), baseline);
    const ms =
      kind === 'cli'
        ? timed(
            [
              process.execPath,
              path.join(ROOT, 'dist/cli/main.js'),
              'run',
              'prompts.txt',
              '--engines',
              ENGINES.join(','),
              '--csv',
              '--sandbox',
            ],
            dir,
          )
        : timed([process.execPath, 'baseline.mjs'], dir);
    const out = kind === 'cli' ? 'prompts.results.jsonl' : 'baseline.jsonl';
    const lines = fs.readFileSync(path.join(dir, out), 'utf8').trim().split('\n').length;
    if (lines !== 300) throw new Error(`${kind}: ${lines} results, not 300`);
    (kind === 'cli' ? cli : sdk).push(ms);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(', ');
console.log(`aeq run --sandbox, 300 tasks: median ${(median(cli) / 1000).toFixed(2)} s (runs: ${fmt(cli)})`);
console.log(`typed client alone, 300 tasks: median ${(median(sdk) / 1000).toFixed(2)} s (runs: ${fmt(sdk)})`);
console.log(`machine: ${os.cpus().length} CPUs, ${os.cpus()[0]?.model}, node ${process.version}`);
