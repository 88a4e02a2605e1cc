/** Rows as aligned columns for a terminal; a cell longer than `maxWidth` is cut with an ellipsis. */
export function table(header: string[], rows: Array<Array<string | number | null | undefined>>, maxWidth = 60): string {
  const cells = [
    header,
    ...rows.map((r) => r.map((c) => cut(c === null || c === undefined ? '' : String(c), maxWidth))),
  ];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  return `${cells
    .map((r) =>
      r
        .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

function cut(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
