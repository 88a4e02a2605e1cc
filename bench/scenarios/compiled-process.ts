import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleService } from '../../build/service-bundle.js';
import { buildService } from './growth-service.js';

/**
 * The scale-out scenario's service process (scaleout-process.ts) run as production runs aeq: `npm start` runs plain
 * `node` on the service bundled by `npm run build` (build/service-bundle.ts, dist/bundle/), with no TypeScript loader.
 * The process's own entry (the bench's no-op adapter and its IPC messages, which a process of its own must register)
 * is bundled the same way, by the same function, with the same sources of src/, into `.tmp/bench-build/`: so the
 * service code it runs, and how it is loaded, are those of `npm start`. The build itself is made first: the parse
 * pool's threads and the files found beside the code (the dashboard, the analysis' parse table) are dist/'s.
 *
 * Why it matters: a process started under tsx loads aeq's modules through tsx's loader, which made the start of three
 * processes at once on two cores take about 2.8 s; a restart's figure must count the start a deployment has.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCE = path.join(ROOT, 'bench', 'scenarios', 'scaleout-process.ts');
const OUT_DIR = path.join(ROOT, '.tmp', 'bench-build');

/** The arguments of `node` that run the service process from its TypeScript sources, under tsx. */
export const TSX_ENTRY_ARGS: readonly string[] = [
  '--import',
  'tsx',
  path.join('bench', 'scenarios', 'scaleout-process.ts'),
];

let built: Promise<string> | null = null;

/**
 * Builds the service (`npm run build`, once per bench run: it is incremental, and run every time so that `dist/` is
 * never older than `src/`) and then the process's bundle; returns its entry's path, to run with `node` alone.
 */
function compiledProcessEntry(): Promise<string> {
  built ??= buildEntry();
  return built;
}

async function buildEntry(): Promise<string> {
  await buildService();
  await bundleService({ entries: { 'scaleout-process': SOURCE }, outdir: OUT_DIR });
  return path.join(OUT_DIR, 'scaleout-process.js');
}

/**
 * The `node` arguments of a scenario's service process: its compiled entry in a full run; in quick mode (the harness's
 * own test, which has no time for a build) the sources under tsx.
 */
export async function serviceProcessArgs(quick: boolean): Promise<readonly string[]> {
  return quick ? TSX_ENTRY_ARGS : [await compiledProcessEntry()];
}
