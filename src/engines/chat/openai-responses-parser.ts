import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult, RetrievedSource, Source } from '../engine-result.js';
import { markdownToText } from '../common/markdown-text.js';
import { displayHost, normalizeSourceUrl } from '../common/urls.js';
import { streamedOpenAiError } from './openai-errors.js';
import { finalFromStream } from './openai-stream.js';
import { decodeSse } from './sse-decoder.js';
import { codePointsOf, insertAtCodePoints, markdownLinkRanges, markerString, outsideLinks } from './text-offsets.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `url_citation` placed on the whole answer (code-point offsets). */
interface Citation {
  start: number;
  end: number;
  url: string;
  title: string | null;
}

interface Answer {
  text: string;
  citations: Citation[];
  refusal: string | null;
}

/** Diagnostics the caller adds to `raw` (transport used, stream event counts). */
export type ResponsesDiagnostics = Record<string, unknown>;

/**
 * Parses a final OpenAI Responses API object (docs/engines.md#openai-responses) — the non-streaming body, or the
 * `response` of a `response.completed` / `response.incomplete` stream event. Annotation offsets
 * are taken as Unicode code points; `[n]` markers go at each citation's end.
 */
export function parseResponsesObject(body: unknown, diagnostics: ResponsesDiagnostics = {}): EngineResult {
  if (!isObj(body)) throw new UpstreamFailure('LAYOUT_CHANGED', 'responses: body is not an object');
  const status = body.status;
  // A failed response (a JSON answer, or `response.failed`'s object) carries its error like a stream does.
  if (status === 'failed') throw streamedOpenAiError(body.error, 'responses: status failed');
  if (status === 'in_progress' || status === 'queued' || status === 'cancelled') {
    throw new UpstreamFailure('UPSTREAM_ERROR', `responses: final object has status ${status}`);
  }
  if (!Array.isArray(body.output)) throw new UpstreamFailure('LAYOUT_CHANGED', 'responses: no output array');
  const incomplete = status === 'incomplete' ? incompleteReason(body) : null;

  const answer = collectAnswer(body.output, incomplete);
  if (answer.text.trim() === '') {
    const why =
      answer.refusal !== null ? 'refusal' : incomplete !== null ? `incomplete (${incomplete})` : 'empty output_text';
    throw new UpstreamFailure('NO_ANSWER', `responses: no answer text: ${why}`);
  }

  const cps = codePointsOf(answer.text);
  const { sources, positionOf } = numberSources(answer.citations);
  const markers = new Map<number, number[]>();
  const warnings: string[] = [];
  const links = markdownLinkRanges(cps);
  for (const c of answer.citations) {
    if (c.end > cps.length) warnings.push(`annotation end ${c.end} past the text end ${cps.length}`);
    const end = Math.min(Math.max(c.end, 0), cps.length);
    // A span that stops inside the model's `([site](url))` would put the marker in the URL (and
    // keep the tracking tag there): the marker goes after the link instead.
    const at = outsideLinks(links, end);
    if (at !== end) warnings.push(`annotation end ${c.end} inside a Markdown link; marker moved to ${at}`);
    const list = markers.get(at) ?? [];
    list.push(positionOf.get(normalizeSourceUrl(c.url)) as number);
    markers.set(at, list);
  }
  const inserts = new Map<number, string>();
  for (const [at, positions] of markers) inserts.set(at, markerString(positions));
  const markdown = stripOpenAiTracking(insertAtCodePoints(cps, inserts));

  const searches = webSearches(body.output);
  return {
    text: markdownToText(stripOpenAiTracking(answer.text)),
    markdown,
    sources,
    signals: {
      searchQueries: searches.queries,
      ...searchTriggered(body, searches.calls),
      ...retrievedSources(searches, new Set(sources.map((s) => s.url))),
    },
    raw: {
      response: body,
      consultedSources: consultedSources(body.output),
      offsetUnit: 'code_point',
      ...(incomplete !== null ? { incomplete } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      ...diagnostics,
    },
  };
}

function collectAnswer(output: unknown[], incomplete: string | null): Answer {
  let text = '';
  let offset = 0; // code points already in `text`
  const citations: Citation[] = [];
  let refusal: string | null = null;
  let messageCount = 0;
  for (const item of output) {
    if (!isObj(item) || item.type !== 'message') continue;
    if (!Array.isArray(item.content))
      throw new UpstreamFailure('LAYOUT_CHANGED', 'responses: message item without a content array');
    if (messageCount > 0 && text !== '') {
      text += '\n\n';
      offset += 2;
    }
    messageCount++;
    for (const part of item.content) {
      if (!isObj(part)) continue;
      if (part.type === 'refusal') {
        refusal = typeof part.refusal === 'string' ? part.refusal : '';
        continue;
      }
      if (part.type !== 'output_text') continue;
      if (typeof part.text !== 'string')
        throw new UpstreamFailure('LAYOUT_CHANGED', 'responses: output_text without a text string');
      for (const a of Array.isArray(part.annotations) ? part.annotations : []) {
        const c = citationOf(a);
        if (c) citations.push({ ...c, start: c.start + offset, end: c.end + offset });
      }
      text += part.text;
      offset += codePointsOf(part.text).length;
    }
  }
  if (messageCount === 0) {
    // A cut-short run can end before any message; a completed one without a message has drifted.
    if (incomplete !== null)
      throw new UpstreamFailure('NO_ANSWER', `responses: incomplete (${incomplete}) before any message`);
    throw new UpstreamFailure('LAYOUT_CHANGED', 'responses: no message item in output');
  }
  return { text, citations, refusal };
}

function citationOf(a: unknown): Citation | null {
  if (!isObj(a) || a.type !== 'url_citation' || typeof a.url !== 'string') return null;
  const start = typeof a.start_index === 'number' ? a.start_index : 0;
  const end = typeof a.end_index === 'number' ? a.end_index : start;
  return { start, end, url: a.url, title: typeof a.title === 'string' && a.title.trim() !== '' ? a.title : null };
}

/** Distinct normalised URLs, numbered in order of first `start_index`. */
function numberSources(citations: readonly Citation[]): { sources: Source[]; positionOf: Map<string, number> } {
  const positionOf = new Map<string, number>();
  const sources: Source[] = [];
  const ordered = [...citations].sort((a, b) => a.start - b.start || a.end - b.end);
  for (const c of ordered) {
    const url = normalizeSourceUrl(c.url);
    if (positionOf.has(url)) continue;
    const position = sources.length + 1;
    positionOf.set(url, position);
    sources.push({ position, url, label: c.title ?? displayHost(url) });
  }
  return { sources, positionOf };
}

interface WebSearches {
  /** `web_search_call` items in the output. */
  calls: number;
  /** Some action listed the pages it read (`action.sources`, which the request's `include` asks for) or opened one. */
  listed: boolean;
  /** The queries of their `search` actions, in order. */
  queries: string[];
  /** The pages their actions consulted (a search's sources, an opened page), first appearance, normalised. */
  consulted: Array<{ url: string; title: string | null; query: string | null }>;
}

/** What the hosted web_search tool did (`include: ["web_search_call.action.sources"]` lists each search's sources). */
function webSearches(output: unknown[]): WebSearches {
  const out: WebSearches = { calls: 0, listed: false, queries: [], consulted: [] };
  const seen = new Set<string>();
  const add = (raw: unknown, title: unknown, query: string | null) => {
    if (typeof raw !== 'string') return;
    const url = normalizeSourceUrl(stripOpenAiTracking(raw));
    if (seen.has(url)) return;
    seen.add(url);
    out.consulted.push({ url, title: typeof title === 'string' && title.trim() !== '' ? title : null, query });
  };
  for (const item of output) {
    if (!isObj(item) || item.type !== 'web_search_call') continue;
    out.calls++;
    const action = isObj(item.action) ? item.action : {};
    const queries = [
      ...(typeof action.query === 'string' ? [action.query] : []),
      ...(Array.isArray(action.queries) ? action.queries.filter((q): q is string => typeof q === 'string') : []),
    ].filter((q) => q.trim() !== '');
    for (const q of queries) if (!out.queries.includes(q)) out.queries.push(q);
    const query = queries[0] ?? null;
    if (action.type === 'open_page' || action.type === 'find') {
      out.listed = true;
      add(action.url, null, null);
    }
    if (Array.isArray(action.sources)) out.listed = true;
    for (const s of Array.isArray(action.sources) ? action.sources : []) if (isObj(s)) add(s.url, s.title, query);
  }
  return out;
}

/**
 * The pages the searches read less the cited ones; none when the model did not search; unknown (absent) when it
 * searched and no action listed what it read.
 */
function retrievedSources(s: WebSearches, cited: ReadonlySet<string>): { retrievedSources?: RetrievedSource[] } {
  if (s.calls > 0 && !s.listed) return {};
  const retrieved = s.consulted.filter((c) => !cited.has(c.url)).map((c, i) => ({ ...c, position: i + 1 }));
  return { retrievedSources: retrieved };
}

/**
 * Whether the model searched: a `web_search_call` says yes; none says no when the request offered the tool (the
 * response echoes its `tools`), and nothing is known otherwise.
 */
function searchTriggered(body: Obj, calls: number): { searchTriggered?: boolean } {
  if (calls > 0) return { searchTriggered: true };
  const offered =
    Array.isArray(body.tools) && body.tools.some((t) => isObj(t) && String(t.type).startsWith('web_search'));
  return offered ? { searchTriggered: false } : {};
}

/** Every URL the web_search calls consulted (`include: ["web_search_call.action.sources"]`), distinct, in order. */
function consultedSources(output: unknown[]): string[] {
  const seen = new Set<string>();
  for (const item of output) {
    if (!isObj(item) || item.type !== 'web_search_call' || !isObj(item.action)) continue;
    const { action } = item;
    if (typeof action.url === 'string') seen.add(action.url);
    for (const s of Array.isArray(action.sources) ? action.sources : []) {
      if (isObj(s) && typeof s.url === 'string') seen.add(s.url);
    }
  }
  return [...seen];
}

/** The model appends `([site](https://…?utm_source=openai))` to cited spans; drop the tracking tag. */
export function stripOpenAiTracking(md: string): string {
  // The parameter ends at `&` or at anything that cannot continue its value (a marker `[1]`, `)`,
  // space, end of text, a sentence's final period).
  return md.replace(/([?&])utm_source=openai(&|(?![\w%+~-]|\.\w))/g, (_m, sep: string, after: string) =>
    after === '&' ? sep : '',
  );
}

function incompleteReason(body: Obj): string {
  const d = body.incomplete_details;
  return isObj(d) && typeof d.reason === 'string' ? d.reason : 'unknown';
}

/**
 * One parser for both transports: an event stream is read to its `response.completed` object, a
 * JSON body is that object already. The content type decides, so a proxy that buffers the stream
 * into JSON (or an upstream ignoring `stream`) still parses.
 */
export function parseResponsesPayload(contentType: string | undefined, body: Buffer): EngineResult {
  if ((contentType ?? '').toLowerCase().includes('text/event-stream')) {
    const { final, diagnostics } = finalFromStream(decodeSse([body]));
    return parseResponsesObject(final, diagnostics);
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFailure('UPSTREAM_ERROR', 'CHATBOT_A answered malformed JSON');
  }
  return parseResponsesObject(json, { transport: 'json' });
}
