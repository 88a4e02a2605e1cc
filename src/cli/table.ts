import stringWidth from 'string-width';

/**
 * Rows as aligned columns for a terminal; a cell wider than `maxWidth` columns is cut with an ellipsis. Widths are the
 * columns a terminal gives a text (Hangul and other wide characters take two, combining marks none), not its UTF-16
 * length, so Korean rows line up.
 */
export function table(header: string[], rows: Array<Array<string | number | null | undefined>>, maxWidth = 60): string {
  const cells = [
    header,
    ...rows.map((r) => r.map((c) => cut(c === null || c === undefined ? '' : String(c), maxWidth))),
  ];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => stringWidth(r[i] ?? ''))));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  return `${cells
    .map((r) =>
      r
        .map((c, i) => {
          const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - stringWidth(c)));
          return numeric[i] ? pad + c : c + pad;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

function cut(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (stringWidth(one) <= max) return one;
  // Whole characters (code points) until the width, with one column left for the ellipsis.
  let out = '';
  for (const ch of one) {
    if (stringWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}
