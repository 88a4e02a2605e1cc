import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult, Source } from '../adapter.js';
import type { RetrievedSource } from '../engine-result.js';
import { markdownToText } from '../common/markdown-text.js';
import { displayHost, normalizeSourceUrl } from '../common/urls.js';
import {
  codePointAtByte,
  codePointsOf,
  insertAtCodePoints,
  markdownLinkRanges,
  markerString,
  outsideLinks,
  utf8Starts,
} from './text-offsets.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface GroundingChunk {
  index: number;
  /** Usually a `grounding-api-redirect` URL, not the publisher's. */
  uri: string | null;
  /** Usually only the publisher's domain. */
  title: string | null;
}

/** Where one grounding support's markers go: a code-point index into the answer. */
interface Placement {
  support: number;
  at: number;
  chunks: number[];
  /** `byte-offset`: the segment's bytes matched its text; `segment-text`: found by searching the text. */
  tier: 'byte-offset' | 'segment-text';
}

export interface GeminiAnswer {
  answer: string;
  chunks: GroundingChunk[];
  placements: Placement[];
  /** Supports whose segment could be placed neither by offsets nor by text. */
  unplaced: number[];
  /** Chunk indices in order of first use in the answer (by placement), then the uncited ones. */
  chunkOrder: number[];
  /** The chunks some grounding support cites, placed in the text or not. */
  supportedChunks: ReadonlySet<number>;
  /** `groundingMetadata.webSearchQueries`: the searches Gemini ran, in order. */
  searchQueries: string[];
  finishReason: string | null;
  response: Obj;
}

/** finishReason values that mean a filter stopped the answer (a truncated text is not an answer). */
const BLOCKED_FINISH_REASONS: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
]);

function feedbackReason(feedback: Obj): string {
  if (typeof feedback.blockReason === 'string') return feedback.blockReason;
  return typeof feedback.blockReasonMessage === 'string'
    ? `no blockReason: ${feedback.blockReasonMessage.slice(0, 80)}`
    : 'no blockReason';
}

/** How a chunk's URI became a publisher URL (kept in `raw`; the redirect links expire). */
export interface ResolvedChunk {
  url: string;
  resolution: 'redirect' | 'direct' | 'title-fallback' | 'unresolved';
  status?: number;
  error?: string;
}

/**
 * Parses a Gemini `generateContent` answer with Search grounding (docs/engines.md#gemini-grounding). Segment
 * offsets are UTF-8 byte offsets (a missing `startIndex` is 0 — proto3 omits zeros), checked
 * against the segment's own text and found by that text when the offsets disagree.
 */
export function parseGemini(body: unknown): GeminiAnswer {
  if (!isObj(body)) throw new UpstreamFailure('LAYOUT_CHANGED', 'gemini: body is not an object');
  const candidates = body.candidates;
  if (!Array.isArray(candidates) || candidates.length === 0) {
    // Prompt feedback in place of candidates is Google refusing the prompt, even when it names no
    // blockReason (only a blockReasonMessage): an answer that legitimately is not there.
    if (isObj(body.promptFeedback))
      throw new UpstreamFailure('NO_ANSWER', `gemini: prompt refused (${feedbackReason(body.promptFeedback)})`);
    throw new UpstreamFailure('LAYOUT_CHANGED', 'gemini: no candidates');
  }
  const cand = candidates[0];
  if (!isObj(cand)) throw new UpstreamFailure('LAYOUT_CHANGED', 'gemini: candidates[0] is not an object');
  const finishReason = typeof cand.finishReason === 'string' ? cand.finishReason : null;
  const parts = isObj(cand.content) && Array.isArray(cand.content.parts) ? cand.content.parts : null;
  if (parts === null && finishReason === null)
    throw new UpstreamFailure('LAYOUT_CHANGED', 'gemini: candidate without content.parts or finishReason');

  // Byte offset of each answer part inside the concatenated answer (thought parts are skipped).
  const partBase = new Map<number, number>();
  let answer = '';
  (parts ?? []).forEach((p, i) => {
    if (!isObj(p) || typeof p.text !== 'string' || p.thought === true) return;
    partBase.set(i, Buffer.byteLength(answer, 'utf8'));
    answer += p.text;
  });
  if (answer.trim() === '')
    throw new UpstreamFailure('NO_ANSWER', `gemini: no answer text (finishReason ${finishReason ?? 'absent'})`);
  // A candidate stopped by a content filter may carry the text written before the stop; that is a
  // cut-off fragment, not the answer (the Firebase SDKs raise ResponseStoppedException for it).
  if (finishReason !== null && BLOCKED_FINISH_REASONS.has(finishReason)) {
    throw new UpstreamFailure(
      'NO_ANSWER',
      `gemini: answer stopped by ${finishReason} after ${codePointsOf(answer).length} characters`,
    );
  }

  const gm = isObj(cand.groundingMetadata) ? cand.groundingMetadata : {};
  const chunks: GroundingChunk[] = (Array.isArray(gm.groundingChunks) ? gm.groundingChunks : []).map((c, index) => {
    const web = isObj(c) ? (isObj(c.web) ? c.web : isObj(c.retrievedContext) ? c.retrievedContext : {}) : {};
    return {
      index,
      uri: typeof web.uri === 'string' ? web.uri : null,
      title: typeof web.title === 'string' ? web.title : null,
    };
  });
  const { placements, unplaced } = placeSupports(
    answer,
    partBase,
    Array.isArray(gm.groundingSupports) ? gm.groundingSupports : [],
    chunks.length,
  );

  const chunkOrder: number[] = [];
  for (const p of placements) for (const c of p.chunks) if (!chunkOrder.includes(c)) chunkOrder.push(c);
  for (const c of chunks) if (!chunkOrder.includes(c.index)) chunkOrder.push(c.index);
  const searchQueries = (Array.isArray(gm.webSearchQueries) ? gm.webSearchQueries : []).filter(
    (q): q is string => typeof q === 'string' && q.trim() !== '',
  );
  const supportedChunks = new Set<number>();
  for (const s of Array.isArray(gm.groundingSupports) ? gm.groundingSupports : []) {
    if (!isObj(s) || !Array.isArray(s.groundingChunkIndices)) continue;
    for (const i of s.groundingChunkIndices)
      if (typeof i === 'number' && i >= 0 && i < chunks.length) supportedChunks.add(i);
  }
  return {
    answer,
    chunks,
    placements,
    unplaced,
    chunkOrder,
    supportedChunks,
    searchQueries,
    finishReason,
    response: body,
  };
}

function placeSupports(
  answer: string,
  partBase: ReadonlyMap<number, number>,
  supports: unknown[],
  chunkCount: number,
): { placements: Placement[]; unplaced: number[] } {
  const bytes = Buffer.from(answer, 'utf8');
  const cps = codePointsOf(answer);
  const starts = utf8Starts(cps);
  // A segment ending inside a Markdown link would split it with its marker: the marker goes after the link.
  const links = markdownLinkRanges(cps);
  const placements: Placement[] = [];
  const unplaced: number[] = [];
  supports.forEach((s, support) => {
    if (!isObj(s) || !isObj(s.segment)) {
      unplaced.push(support);
      return;
    }
    const seg = s.segment;
    const chunks = (Array.isArray(s.groundingChunkIndices) ? s.groundingChunkIndices : []).filter(
      (i): i is number => typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < chunkCount,
    );
    if (chunks.length === 0) return;
    const segText = typeof seg.text === 'string' ? seg.text : null;
    const base =
      partBase.get(typeof seg.partIndex === 'number' ? seg.partIndex : 0) ??
      (typeof seg.partIndex === 'number' ? null : 0);
    const start = typeof seg.startIndex === 'number' ? seg.startIndex : 0;
    const end = typeof seg.endIndex === 'number' ? seg.endIndex : null;
    if (base !== null && end !== null && end >= start) {
      const slice = bytes.subarray(base + start, base + end).toString('utf8');
      if (segText === null || slice.trim() === segText.trim()) {
        placements.push({
          support,
          at: outsideLinks(links, codePointAtByte(starts, base + end)),
          chunks,
          tier: 'byte-offset',
        });
        return;
      }
    }
    // Offsets disagree with the text (another unit, another part numbering): find the text instead.
    const found = segText ? answer.indexOf(segText.trim()) : -1;
    if (found === -1) {
      unplaced.push(support);
      return;
    }
    const at = outsideLinks(links, codePointsOf(answer.slice(0, found + (segText as string).trim().length)).length);
    placements.push({ support, at, chunks, tier: 'segment-text' });
  });
  placements.sort((a, b) => a.at - b.at || a.support - b.support);
  return { placements, unplaced };
}

/**
 * Turns a parsed answer plus the resolved chunk URLs into the normalised result: sources numbered
 * by first use and de-duplicated by publisher URL, `[n]` after each supported segment.
 */
export function buildGeminiResult(a: GeminiAnswer, resolved: ReadonlyMap<number, ResolvedChunk>): EngineResult {
  const positionOfUrl = new Map<string, number>();
  const positionOfChunk = new Map<number, number>();
  const sources: Source[] = [];
  // A chunk no support cites was read but not cited: it goes to `retrievedSources` (a chunk whose support could not be
  // placed in the text is still cited). With no support at all, the chunks are the only source list the answer has,
  // and they stay sources.
  const cited = a.supportedChunks;
  const retrieved: RetrievedSource[] = [];
  const retrievedUrls = new Set<string>();
  for (const idx of a.chunkOrder) {
    const chunk = a.chunks[idx];
    const r = resolved.get(idx);
    if (!chunk || !r) continue;
    const url = normalizeSourceUrl(r.url);
    if (cited.size > 0 && !cited.has(idx)) {
      if (!retrievedUrls.has(url) && !positionOfUrl.has(url)) {
        retrievedUrls.add(url);
        retrieved.push({ position: retrieved.length + 1, url, title: chunk.title, query: null });
      }
      continue;
    }
    let pos = positionOfUrl.get(url);
    if (pos === undefined) {
      pos = sources.length + 1;
      positionOfUrl.set(url, pos);
      sources.push({ position: pos, url, label: chunk.title ?? displayHost(url) });
    }
    positionOfChunk.set(idx, pos);
  }
  const byAt = new Map<number, number[]>();
  for (const p of a.placements) {
    const list = byAt.get(p.at) ?? [];
    for (const c of p.chunks) {
      const pos = positionOfChunk.get(c);
      if (pos !== undefined) list.push(pos);
    }
    byAt.set(p.at, list);
  }
  const inserts = new Map<number, string>();
  for (const [at, positions] of byAt) if (positions.length > 0) inserts.set(at, markerString(positions));
  return {
    text: markdownToText(a.answer),
    markdown: insertAtCodePoints(codePointsOf(a.answer), inserts),
    sources,
    signals: {
      searchQueries: a.searchQueries,
      // The request always offers the google_search tool: an answer without grounding did not search.
      searchTriggered: a.searchQueries.length > 0 || a.chunks.length > 0,
      retrievedSources: retrieved,
    },
    raw: {
      response: a.response,
      groundingChunks: a.chunks.map((c) => ({ ...c, ...resolved.get(c.index) })),
      placements: a.placements.map((p) => ({ support: p.support, tier: p.tier })),
      ...(a.unplaced.length > 0 ? { unplacedSupports: a.unplaced } : {}),
      offsetUnit: 'utf8_byte',
      finishReason: a.finishReason,
    },
  };
}
