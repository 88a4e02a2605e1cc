import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

/** The dashboard's sources (web/dashboard) and where `npm run build` puts it (served at /dashboard). */
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const DASHBOARD_SOURCE = path.join(HERE, 'dashboard');
export const DASHBOARD_OUT = path.join(HERE, '..', 'dist', 'dashboard');

/** The files a build writes (index.html, app.js, app.css, its chunks app-*.js), and only those. */
const OUTPUTS = /^(index\.html|app[.-].+)$/;

/**
 * Bundles the dashboard into `outDir`: index.html, app.js (Preact, htm, uPlot, marked and the typed client, minified,
 * one ES module) and app.css. Every asset is served by aeq itself: no CDN. Returns the bytes of each file written.
 */
export async function buildDashboard(outDir = DASHBOARD_OUT): Promise<Record<string, number>> {
  fs.mkdirSync(outDir, { recursive: true });
  // What an earlier build wrote goes first: a file it no longer makes must not stay served.
  for (const f of fs.readdirSync(outDir)) if (OUTPUTS.test(f)) fs.rmSync(path.join(outDir, f), { force: true });
  await esbuild.build({
    entryPoints: { app: path.join(DASHBOARD_SOURCE, 'src', 'main.ts') },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    // The Markdown renderer is imported when an answer is shown: its own chunk.
    splitting: true,
    chunkNames: 'app-[name]-[hash]',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: false,
    legalComments: 'linked',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  fs.copyFileSync(path.join(DASHBOARD_SOURCE, 'index.html'), path.join(outDir, 'index.html'));
  const sizes: Record<string, number> = {};
  for (const f of fs.readdirSync(outDir)) sizes[f] = fs.statSync(path.join(outDir, f)).size;
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : DASHBOARD_OUT;
  const sizes = await buildDashboard(out);
  const list = Object.entries(sizes)
    .map(([f, n]) => `${f} ${(n / 1024).toFixed(1)} KiB`)
    .join(', ');
  console.log(`dashboard built in ${path.relative(process.cwd(), out) || '.'}: ${list}`);
}
