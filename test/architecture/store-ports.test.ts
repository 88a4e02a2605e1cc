import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importEdges, type ImportEdge } from './import-graph.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

/**
 * The composition roots: they open the store and hand each part its port (app.ts), or administer accounts with no
 * server running (the command line).
 */
const ROOTS = [/^app\.ts$/, /^cli\//];

/**
 * What a root may import of src/store besides the ports: the store itself, the two ways to open one, the embedded
 * store's data dir guards (its lock and its mode), and the directory of the task artefacts' files.
 */
const ROOT_IMPORTS = new Set([
  'store/store.ts',
  'store/sqlite/sqlite-store.ts',
  'store/postgres/postgres-store.ts',
  'store/sqlite/data-dir-lock.ts',
  'store/sqlite/data-dir-mode.ts',
  'store/artifacts/directory.ts',
]);

/** The imports into src/store from outside it that take more than a port (docs/architecture.md, "The store"). */
function storeImportViolations(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((e) => !e.from.startsWith('store/') && e.to.startsWith('store/') && e.to !== 'store/ports.ts')
    .filter((e) => !(ROOTS.some((r) => r.test(e.from)) && ROOT_IMPORTS.has(e.to)))
    .map((e) => `${e.from} -> ${e.to}`);
}

/** Consumers of the store take its ports (src/store/ports.ts), never the whole store or an operation's module. */
describe('store ports', () => {
  const { edges } = importEdges(SRC);

  it('finds the consumers of the store', () => {
    // A scan that found no consumer would pass the rule below.
    expect(edges).toContainEqual({ from: 'queue/worker.ts', to: 'store/ports.ts' });
    expect(edges).toContainEqual({ from: 'webhooks/sender.ts', to: 'store/ports.ts' });
    expect(edges).toContainEqual({ from: 'app.ts', to: 'store/store.ts' });
  });

  it('outside src/store, only the composition roots import more than the ports', () => {
    expect(storeImportViolations(edges)).toEqual([]);
  });

  it('flags a consumer that takes the whole store or an operation', () => {
    expect(
      storeImportViolations([
        { from: 'queue/worker.ts', to: 'store/store.ts' },
        { from: 'http/routes/usage.ts', to: 'store/usage.ts' },
        { from: 'cli/commands/accounts.ts', to: 'store/accounts.ts' },
        { from: 'app.ts', to: 'store/store.ts' },
        { from: 'store/sqlite/sqlite-store.ts', to: 'store/tasks/claim.ts' },
      ]),
    ).toEqual([
      'queue/worker.ts -> store/store.ts',
      'http/routes/usage.ts -> store/usage.ts',
      'cli/commands/accounts.ts -> store/accounts.ts',
    ]);
  });
});
