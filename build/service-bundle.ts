import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

/**
 * The service as `npm start` runs it: esbuild bundles the CLI's entry (src/cli/main.ts) with aeq's modules and the
 * packages they import into a few ES modules under dist/bundle/, so that a process starts by reading a handful of files
 * rather than some 850 (1,600 for an API process). A process's start is on the path of every task after a restart:
 * each module the ESM loader resolves and reads one by one costs start time, and three processes starting at once on
 * two cores took twice as long as one (docs/benchmarks.md, recovery). The dynamic imports by which a process loads
 * only what its role serves stay apart, as chunks loaded on first use.
 *
 * What the bundle keeps as it was:
 * - A module's own address (`import.meta.url`), by which aeq finds files beside its code: the parse pool's thread,
 *   the analysis' parse table, the dashboard, the default config. Each module's `import.meta.url` is rewritten to the
 *   address of its compiled twin in dist/ (`twins: 'dist'`, what `npm run build` makes), or of its source file
 *   (`twins: 'src'`, the test's form, which runs without a build: the parse pool's threads then load the sources under
 *   tsx, as under vitest).
 * - The packages that read files of their own beside their code at run time (native bindings, worker scripts, data
 *   files), loaded from node_modules as before: PACKAGES_KEPT_OUT.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
export const SERVICE_ENTRY = path.join(SRC, 'cli', 'main.ts');
export const SERVICE_BUNDLE_DIR = path.join(DIST, 'bundle');

/**
 * Loaded from node_modules, not bundled: better-sqlite3 (a native binding found by path), jsdom (its stylesheet and
 * sync XHR worker by path), playwright-core (its driver and scripts), piscina (its worker script), tsx (the parse
 * threads' loader from sources), and the optional native helpers some packages try to require.
 */
const PACKAGES_KEPT_OUT = [
  'better-sqlite3',
  'jsdom',
  'playwright-core',
  'piscina',
  'tsx',
  'esbuild',
  'pg-native',
  'bufferutil',
  'utf-8-validate',
  'canvas',
];

/** The module-scoped `require` that esbuild's output expects in an ES module, for the CommonJS packages inlined. */
const REQUIRE_BANNER =
  "import { createRequire as __aeqCreateRequire } from 'node:module';\n" +
  'const require = __aeqCreateRequire(import.meta.url);';

export interface BundleOptions {
  /** Entry name → source file (default: `main` → src/cli/main.ts). */
  entries?: Record<string, string>;
  /** Where the bundle goes (default dist/bundle); every output file is written directly in it. */
  outdir?: string;
  /** Whose address a module of src/ takes: its compiled twin in dist/ (default) or its own source file. */
  twins?: 'dist' | 'src';
}

/** The address a module of aeq answers for `import.meta.url`: its compiled twin in dist/, or itself. */
function twinOf(file: string, twins: 'dist' | 'src'): string {
  const rel = path.relative(SRC, file);
  if (twins === 'src' || rel.startsWith('..') || path.isAbsolute(rel)) return file;
  return path.join(DIST, rel.replace(/\.ts$/, '.js'));
}

/** Bundles the service; returns the files written, relative to `outdir`. */
export async function bundleService(opts: BundleOptions = {}): Promise<string[]> {
  const outdir = opts.outdir ?? SERVICE_BUNDLE_DIR;
  const twins = opts.twins ?? 'dist';
  // What an earlier bundle wrote goes first: a chunk it no longer makes must not be left beside the new ones.
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: opts.entries ?? { main: SERVICE_ENTRY },
    // The metafile's paths are relative to this, whatever directory the build is run from.
    absWorkingDir: ROOT,
    outdir,
    // Every output file directly in `outdir`: the rewritten addresses are relative to it.
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external: PACKAGES_KEPT_OUT,
    banner: { js: REQUIRE_BANNER },
    logLevel: 'warning',
    metafile: true,
    plugins: [
      {
        name: 'module-address',
        setup(b) {
          b.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (a) => {
            if (a.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const source = fs.readFileSync(a.path, 'utf8');
            if (!source.includes('import.meta.url')) return undefined;
            const address = path.relative(outdir, twinOf(a.path, twins)).split(path.sep).join('/');
            const rewritten = source.replaceAll(
              'import.meta.url',
              `new URL(${JSON.stringify(address)}, import.meta.url).href`,
            );
            return { contents: rewritten, loader: /\.m?ts$/.test(a.path) ? 'ts' : 'js' };
          });
        },
      },
    ],
  });
  return Object.keys(result.metafile.outputs).map((f) => path.relative(outdir, path.resolve(ROOT, f)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleService();
  const modules = files.filter((f) => f.endsWith('.js')).length;
  console.log(`service bundled in ${path.relative(process.cwd(), SERVICE_BUNDLE_DIR)}: ${modules} files of code`);
}
