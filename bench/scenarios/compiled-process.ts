import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { buildService } from './growth-service.js';
import { TSX_ENTRY_ARGS } from './scaleout.js';

/**
 * The scale-out scenario's service process (scaleout-process.ts) run as production runs aeq: plain `node` on the
 * compiled `dist/` that `npm run build` writes (`npm start`), with no TypeScript loader. Only the process's own entry
 * (the bench's no-op adapter and its IPC messages, which a process of its own must register) is compiled apart, by
 * esbuild into one file under `.tmp/`, its imports of `src/` pointed at the same files in `dist/`: so the service code
 * it runs is the build's, byte for byte.
 *
 * Why it matters: a process started under tsx loads aeq's modules through tsx's loader, which made the start of three
 * processes at once on two cores take about 2.8 s; a restart's figure must count the start a deployment has.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCE = path.join(ROOT, 'bench', 'scenarios', 'scaleout-process.ts');
const OUT_FILE = path.join(ROOT, '.tmp', 'bench-build', 'scaleout-process.js');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');

let built: Promise<string> | null = null;

/**
 * Builds the service (`npm run build`, once per bench run: it is incremental, and run every time so that `dist/` is
 * never older than `src/`) and then the process's entry; returns the entry's path, to run with `node` alone.
 */
function compiledProcessEntry(): Promise<string> {
  built ??= buildEntry();
  return built;
}

async function buildEntry(): Promise<string> {
  await buildService();
  await esbuild.build({
    entryPoints: [SOURCE],
    outfile: OUT_FILE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages load from node_modules as in production; the bench's own modules are bundled.
    packages: 'external',
    logLevel: 'warning',
    plugins: [
      {
        name: 'src-to-dist',
        setup(b) {
          // A relative import of a module of src/ is left as an import of its compiled twin in dist/.
          b.onResolve({ filter: /^\./ }, (a) => {
            const file = path.resolve(a.resolveDir, a.path);
            const rel = path.relative(SRC, file);
            if (rel.startsWith('..')) return undefined;
            const target = path.relative(path.dirname(OUT_FILE), path.join(DIST, rel));
            return { path: target.startsWith('.') ? target : `./${target}`, external: true };
          });
        },
      },
    ],
  });
  return OUT_FILE;
}

/**
 * The `node` arguments of a scenario's service process: its compiled entry in a full run; in quick mode (the harness's
 * own test, which has no time for a build) the sources under tsx.
 */
export async function serviceProcessArgs(quick: boolean): Promise<readonly string[]> {
  return quick ? TSX_ENTRY_ARGS : [await compiledProcessEntry()];
}
