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

/**
 * Code-point ranges `[start, end)` of the Markdown inline links `[label](target)` in a text, each
 * widened to the parentheses around it when the link is wrapped as OpenAI's answers write their
 * citations: `([site](https://…))`. One level of parentheses inside a target is allowed
 * (`/wiki/Foo_(bar)`).
 */
export function markdownLinkRanges(cps: readonly string[]): Array<[number, number]> {
  const text = cps.join('');
  // UTF-16 index -> code-point index, for the regex match positions.
  const cpIndex = new Array<number>(text.length + 1);
  let u = 0;
  for (let k = 0; k < cps.length; k++) {
    const len = (cps[k] as string).length;
    for (let j = 0; j < len; j++) cpIndex[u + j] = k;
    u += len;
  }
  cpIndex[text.length] = cps.length;
  const ranges: Array<[number, number]> = [];
  // The label does not cross a `[`: each `[` of a run without its `]` would otherwise rescan the line.
  for (const m of text.matchAll(/(\()?\[[^[\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*\)(\))?/g)) {
    let start = m.index;
    let end = m.index + m[0].length;
    // Only a matched pair of wrapping parentheses belongs to the link.
    if (m[1] !== undefined && m[2] === undefined) start += 1;
    if (m[1] === undefined && m[2] !== undefined) end -= 1;
    ranges.push([cpIndex[start] as number, cpIndex[end] as number]);
  }
  return ranges;
}

/**
 * Where a marker meant for code point `at` may go: a position strictly inside a link (its label,
 * its target, or between the link and its wrapping parenthesis) is moved to the end of the link, so
 * a citation span that stops short never splits a link or lands in its URL.
 */
export function outsideLinks(ranges: ReadonlyArray<readonly [number, number]>, at: number): number {
  for (const [start, end] of ranges) if (at > start && at < end) return end;
  return at;
}
