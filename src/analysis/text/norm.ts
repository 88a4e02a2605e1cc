/** Text normalisation and language detection of docs/analysis.md#s0. */

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;

/** NFKC; zero-width characters removed; curly quotes and en/em dashes made plain; whitespace collapsed. */
export function norm(s: string): string {
  return s
    .normalize('NFKC')
    .replace(ZERO_WIDTH, '')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

// Language detection lives below the engines (page extraction uses it too); the analyses import it from here.
export { detectLanguage, type Language } from '../../text/language.js';

/**
 * `s` without the trailing characters listed in `chars`: what `/[…]+$/` does, without the quadratic
 * time that pattern takes on a long run of those characters followed by another one.
 */
export function trimEndChars(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1] as string)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Rounds to 4 decimals (shares, §0). */
export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * Rounds non-negative values that sum to 1 to 4 decimals so that the rounded values still sum to
 * exactly 1 (largest-remainder method; ties by input order). Values summing to 0 stay 0.
 */
export function roundPartition(values: readonly number[]): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  if (total <= 0) return values.map(() => 0);
  const scaled = values.map((v) => (v / total) * 10_000);
  const floors = scaled.map((v) => Math.floor(v + 1e-9));
  let missing = 10_000 - floors.reduce((a, b) => a + b, 0);
  const order = scaled.map((v, i) => ({ i, rem: v - (floors[i] ?? 0) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const o of order) {
    if (missing <= 0) break;
    floors[o.i] = (floors[o.i] ?? 0) + 1;
    missing--;
  }
  return floors.map((f) => f / 10_000);
}

/** Truncates to at most `max` characters on a word boundary where possible, with an ellipsis. */
export function excerpt(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
