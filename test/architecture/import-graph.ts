import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { LAYERS, SIDE_UNITS } from './layers.js';

/** One import between two modules of src/ (paths relative to src/, with `/`). */
export interface ImportEdge {
  from: string;
  to: string;
}

/** Every module of src/ (.ts, .mjs; not declaration files). */
export function sourceModules(srcDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts'))
        out.push(path.relative(srcDir, p).split(path.sep).join('/'));
    }
  };
  walk(srcDir);
  return out.sort();
}

/**
 * The imports of src/ between its own modules, read by the TypeScript scanner: static and dynamic
 * imports, `import type`, and re-exports (`export … from`). Type-only imports count: they are
 * dependencies of the design even though the compiler erases them.
 */
export function importEdges(srcDir: string): { edges: ImportEdge[]; unresolved: ImportEdge[] } {
  const modules = sourceModules(srcDir);
  const known = new Set(modules);
  const edges: ImportEdge[] = [];
  const unresolved: ImportEdge[] = [];
  for (const from of modules) {
    const text = fs.readFileSync(path.join(srcDir, from), 'utf8');
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!spec.startsWith('.')) continue; // a package
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
      const to = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), `${target}.ts`].find((c) =>
        known.has(c),
      );
      if (to) edges.push({ from, to });
      // A JSON module (the judge's weights) is data beside its importer, not a module of the graph.
      else if (!(target.endsWith('.json') && fs.existsSync(path.join(srcDir, target))))
        unresolved.push({ from, to: spec });
    }
  }
  return { edges, unresolved };
}

/** The unit of a module: its top-level folder, or `app` for the files directly in src/. */
export function unitOf(module: string): string {
  const slash = module.indexOf('/');
  return slash < 0 ? 'app' : module.slice(0, slash);
}

/** Units neither in a layer nor beside the stack (each new top-level folder must be placed). */
export function undeclaredUnits(modules: readonly string[]): string[] {
  const declared = new Set([...LAYERS.flat(), ...Object.keys(SIDE_UNITS)]);
  return [...new Set(modules.map(unitOf))].filter((u) => !declared.has(u)).sort();
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((units) => units.includes(unit));
}

/** Whether a module of unit `from` may import one of unit `to`. */
export function allowed(from: string, to: string): boolean {
  if (from === to) return true;
  const fromSide = SIDE_UNITS[from];
  const toSide = SIDE_UNITS[to];
  if (toSide) return toSide.importedBy.includes(from);
  if (fromSide) return fromSide.imports.includes(to);
  const a = layerOf(from);
  const b = layerOf(to);
  return a >= 0 && b >= 0 && b < a;
}

/** Imports that break the layer order, as `from -> to (unit -> unit)`. */
export function layerViolations(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((e) => !allowed(unitOf(e.from), unitOf(e.to)))
    .map((e) => `${e.from} -> ${e.to} (${unitOf(e.from)} -> ${unitOf(e.to)})`);
}

/** Strongly connected groups of more than one node: each is an import cycle (Tarjan's algorithm). */
export function cycles(edges: ReadonlyArray<{ from: string; to: string }>): string[][] {
  const graph = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    graph.set(from, [...(graph.get(from) ?? []), to]);
    if (!graph.has(to)) graph.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The imports between units (top-level folders), for the cycle check between folders. */
export function unitEdges(edges: readonly ImportEdge[]): Array<{ from: string; to: string }> {
  const seen = new Map<string, { from: string; to: string }>();
  for (const e of edges) {
    const from = unitOf(e.from);
    const to = unitOf(e.to);
    if (from !== to) seen.set(`${from} ${to}`, { from, to });
  }
  return [...seen.values()];
}
