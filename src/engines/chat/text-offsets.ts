/**
 * Offset arithmetic for citation spans. Upstreams count in different units: OpenAI annotations in
 * Unicode code points (believed; JavaScript strings index UTF-16 units), Gemini grounding segments
 * in UTF-8 bytes. Everything is converted to code-point indexes before markers are inserted, so an
 * emoji (two UTF-16 units, four bytes) or a Hangul syllable (three bytes) cannot shift a marker.
 */

/** The text split into code points (one array element per Unicode scalar value). */
export function codePointsOf(text: string): string[] {
  return Array.from(text);
}

/** Slices a text by code-point indexes `[start, end)`. */
export function sliceCodePoints(text: string, start: number, end?: number): string {
  return codePointsOf(text).slice(start, end).join('');
}

/**
 * Cumulative UTF-8 byte offsets of each code point: `starts[k]` is the byte where code point k
 * begins; `starts[cps.length]` is the total byte length.
 */
export function utf8Starts(cps: readonly string[]): number[] {
  const starts = new Array<number>(cps.length + 1);
  let b = 0;
  for (let k = 0; k < cps.length; k++) {
    starts[k] = b;
    b += Buffer.byteLength(cps[k] as string, 'utf8');
  }
  starts[cps.length] = b;
  return starts;
}

/**
 * Code-point index for a UTF-8 byte offset. An offset inside a multi-byte character is rounded up
 * to the end of that character (a marker never splits a character); offsets past the end clamp.
 */
export function codePointAtByte(starts: readonly number[], byte: number): number {
  const last = starts.length - 1;
  if (byte <= 0) return 0;
  if (byte >= (starts[last] as number)) return last;
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] as number) < byte) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Inserts strings after code-point positions: `inserts.get(i)` goes before code point i (i.e.
 * after the first i code points). Positions past the end are appended at the end.
 */
export function insertAtCodePoints(cps: readonly string[], inserts: ReadonlyMap<number, string>): string {
  let out = '';
  for (let i = 0; i <= cps.length; i++) {
    const add = inserts.get(i);
    if (add) out += add;
    if (i < cps.length) out += cps[i];
  }
  let tail = '';
  for (const [i, add] of [...inserts].sort((a, b) => a[0] - b[0])) if (i > cps.length) tail += add;
  return out + tail;
}

/** `[1][3]` for a list of positions, each once, ascending. */
export function markerString(positions: Iterable<number>): string {
  return [...new Set(positions)]
    .sort((a, b) => a - b)
    .map((p) => `[${p}]`)
    .join('');
}
