import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allowed,
  cycles,
  importEdges,
  layerViolations,
  sourceModules,
  undeclaredUnits,
  unitEdges,
} from './import-graph.js';
import { layerDiagram } from './layers.js';

const SRC = path.resolve(import.meta.dirname, '../../src');
const ARCHITECTURE_DOC = path.resolve(import.meta.dirname, '../../docs/architecture.md');

/**
 * Imports flow one way (docs/architecture.md, "Layers"): each unit of src/ imports only lower
 * layers, no folders import each other in a ring, and no module imports itself through others.
 */
describe('import rules of src/', () => {
  const { edges, unresolved } = importEdges(SRC);

  it('reads the import graph (every relative import resolves to a module of src/)', () => {
    expect(unresolved).toEqual([]);
    // A scan that found nothing would pass every rule below.
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: 'app.ts', to: 'adapters.ts' });
    expect(edges).toContainEqual({ from: 'engines/adapter.ts', to: 'transport/http-transport.ts' });
  });

  it('places every top-level folder of src/ in a layer', () => {
    expect(undeclaredUnits(sourceModules(SRC))).toEqual([]);
  });

  it("no module imports from its own layer's other folders or from a layer above it", () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it('no cycle between folders', () => {
    expect(cycles(unitEdges(edges))).toEqual([]);
  });

  it('no cycle between modules, type-only imports included', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('docs/architecture.md shows the declared layers', () => {
    expect(fs.readFileSync(ARCHITECTURE_DOC, 'utf8')).toContain(layerDiagram());
  });
});

describe('the import-rule checker', () => {
  it('refuses imports from above, from the same layer and into the sandbox', () => {
    expect(allowed('engines', 'transport')).toBe(true);
    expect(allowed('transport', 'engines')).toBe(false);
    expect(allowed('engines', 'analysis')).toBe(false);
    expect(allowed('store', 'transport')).toBe(false);
    expect(allowed('app', 'sandbox')).toBe(true);
    expect(allowed('engines', 'sandbox')).toBe(false);
    expect(allowed('sandbox', 'config')).toBe(true);
    expect(allowed('sandbox', 'engines')).toBe(false);
    expect(allowed('nowhere', 'domain')).toBe(false);
    expect(
      layerViolations([{ from: 'transport/browser/context-options.ts', to: 'engines/search-a/region-language.ts' }]),
    ).toEqual(['transport/browser/context-options.ts -> engines/search-a/region-language.ts (transport -> engines)']);
  });

  it('finds cycles, direct and through others, and nothing in a one-way graph', () => {
    const ring = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
      { from: 'e', to: 'f' },
      { from: 'f', to: 'e' },
    ];
    expect(cycles(ring)).toEqual([
      ['a', 'b', 'c'],
      ['e', 'f'],
    ]);
    expect(
      cycles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'a', to: 'c' },
      ]),
    ).toEqual([]);
  });
});
