/**
 * The allowed import graph of src/, in one place (docs/architecture.md shows it; the import-rule
 * test enforces it and checks that the document shows this very table).
 *
 * A unit is a top-level folder of src/; the files directly in src/ (app.ts, adapters.ts) form the
 * unit `app`. Layers are listed bottom first: a unit may import only units of lower layers, never
 * its own layer's other units and never a higher layer.
 */
export const LAYERS: ReadonlyArray<readonly string[]> = [
  ['domain', 'text'],
  ['config', 'net', 'ops'],
  ['store', 'transport'],
  ['pools', 'accounts'],
  ['submission'],
  ['engines'],
  ['analysis'],
  ['queue', 'webhooks', 'export'],
  ['http'],
  ['mcp'],
  ['app'],
  ['cli'],
];

/** Units beside the stack: what each may import, and which units alone may import it. */
export const SIDE_UNITS: Readonly<Record<string, { imports: readonly string[]; importedBy: readonly string[] }>> = {
  /** The upstream simulator: started by the app and the CLI, sharing only the domain and the config. */
  sandbox: { imports: ['domain', 'text', 'config', 'net', 'ops'], importedBy: ['app', 'cli'] },
};

/**
 * The layer diagram as docs/architecture.md shows it: one row per layer, the top layer first; a
 * unit imports only units on rows below its own.
 */
export function layerDiagram(): string {
  const rows = LAYERS.map(
    (units, i) =>
      `${String(i).padStart(2)}  ${units
        .map((u) => u.padEnd(12))
        .join('')
        .trimEnd()}`,
  ).reverse();
  const side = Object.entries(SIDE_UNITS).map(
    ([u, s]) => `beside: ${u.padEnd(12)}imports ${s.imports.join(', ')}; imported only by ${s.importedBy.join(', ')}`,
  );
  return [...rows, '', ...side].join('\n');
}
