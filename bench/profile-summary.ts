import fs from 'node:fs';
import path from 'node:path';

/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by module
 * (package name, or src/... file), so docs/benchmarks.md can say where the hot path spends its time.
 * Usage: tsx bench/profile-summary.ts FILE.cpuprofile [top=25] [--steps=fnA,fnB,...]
 * `--steps`: also the total time (self and callees) under each named function, counted once where they nest in
 * themselves, e.g. the steps of a page read (`--steps=parseFromString,appShellEvidence,parse@readability,turndown`);
 * `fn@text` counts only a function `fn` whose script URL contains `text`.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function moduleOf(url: string): string {
  if (!url) return '(native / V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  if (src !== -1) return url.slice(src + 1);
  return path.basename(url);
}

const stepsArg = process.argv.find((a) => a.startsWith('--steps='))?.slice('--steps='.length);
const [file, topArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!file) throw new Error('usage: profile-summary FILE.cpuprofile [top]');
const top = Number(topArg ?? 25);
const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
for (const [i, id] of prof.samples.entries()) selfUs.set(id, (selfUs.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const byFn = new Map<string, number>();
const byModule = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  if (!n) continue;
  const { functionName, url, lineNumber } = n.callFrame;
  const mod = moduleOf(url);
  const fnKey = `${functionName || '(anonymous)'} — ${mod}${url ? `:${lineNumber + 1}` : ''}`;
  byFn.set(fnKey, (byFn.get(fnKey) ?? 0) + us);
  byModule.set(mod, (byModule.get(mod) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`;
const table = (title: string, m: Map<string, number>) => {
  console.log(`\n| ${title} | self time | share |\n|---|---:|---:|`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${k.replace(/\|/g, '\\|')} | ${(us / 1000).toFixed(0)} ms | ${pct(us)} |`);
};
console.log(`Profile ${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled`);
table('Module', byModule);
table('Function', byFn);

if (stepsArg) {
  // Each sample's stack, leaf to root, through the parent links; a step counts a sample once however deep it nests.
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const steps = stepsArg.split(',');
  const under = new Map<string, number>(steps.map((s) => [s, 0]));
  const matches = (step: string, frame: ProfileNode['callFrame']) => {
    const [fn, inUrl] = step.split('@');
    return frame.functionName === fn && (inUrl === undefined || frame.url.includes(inUrl));
  };
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) continue;
      for (const step of steps) {
        if (!seen.has(step) && matches(step, frame)) {
          seen.add(step);
          under.set(step, (under.get(step) ?? 0) + us);
        }
      }
    }
  }
  console.log('\n| Step (function and its callees) | total time | share |\n|---|---:|---:|');
  for (const [k, us] of under) console.log(`| ${k} | ${(us / 1000).toFixed(0)} ms | ${pct(us)} |`);
}
