/**
 * The single byte range of a `Range` header (RFC 9110, 14.1.2 and 14.2), as a download of an artefact honours it:
 * `bytes=first-last`, `bytes=first-` and `bytes=-suffix`, a last position past the end read as the end.
 *
 * - `full`: no range to honour. Also a header that is not a byte range, a malformed one and a list of several ranges:
 *   a server may ignore a Range it does not understand or does not serve (14.2), and the whole file is then the
 *   correct answer (200), never an error.
 * - `unsatisfiable`: a well-formed range that starts at or beyond the end (or a zero-length suffix): 416.
 *
 * Written here rather than taken from `range-parser`: the service serves one range and nothing else of that package,
 * the rules fit in this page, and its tests (test/http/byte-range.test.ts) cover each case of the RFC.
 */
export type ByteRange = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/** Read with spaces and tabs taken out first, so the pattern has no run of blanks to weigh against another. */
const SPEC = /^bytes=(\d*)-(\d*)$/i;
/** Positions beyond this are not files the service keeps; such a header is treated as malformed. */
const MAX_DIGITS = 15;

export function byteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return { kind: 'full' };
  const m = SPEC.exec(header.replace(/[ \t]/g, ''));
  if (!m) return { kind: 'full' };
  const [, first = '', last = ''] = m;
  if (first.length > MAX_DIGITS || last.length > MAX_DIGITS) return { kind: 'full' };
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
