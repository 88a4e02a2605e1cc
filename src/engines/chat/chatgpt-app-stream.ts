import { markdownToText } from '../common/markdown-text.js';
import {
  productOf,
  SourceList,
  StreamUnreadable,
  str,
  uncited,
  type ProductCard,
  type StreamAnswer,
} from './app-stream.js';
import { applyPatch, isObject, type Json, type JsonObject, patchBudget } from './json-patch.js';
import { decodeSse } from './sse-decoder.js';

/** More events than any answer needs: a stream past it is not read (the page is). */
const MAX_EVENTS = 200_000;
/** Citation references of one message beyond these are ignored (a real answer has a few dozen). */
const MAX_REFS = 2_000;

/**
 * Reads ChatGPT's conversation stream (`POST /backend-api/conversation`, docs/engines.md#chatgpt-app-stream) into
 * the answer of its last assistant message: its Markdown with `[n]` markers where the app placed its citations, the
 * cited pages, the searches it ran, the results it listed but did not cite and its product cards.
 *
 * The wire: server-sent events; `event: delta_encoding` with `"v1"` announces JSON-Patch deltas, each
 * `{p, o, v, c}` (path, operation, value, channel) where an absent `p`/`o` repeats the previous delta's, `c` the
 * previous channel's, `p: ""` with `add` starts a new root `{message, conversation_id, …}`, and `o: "patch"`
 * carries a list of operations. Without the `delta_encoding` event each `data:` is a whole root (the older form).
 * Typed lines (`{"type": "message_stream_complete"}`, `server_ste_metadata`, …) say how the turn ends; `[DONE]` ends
 * the stream. One pass over the events; every operation costs its path and value.
 *
 * Throws StreamUnreadable when the stream does not hold a finished answer in a form we know.
 */
export function readChatGptStream(body: string): StreamAnswer {
  const events = decodeSse([body]);
  if (events.length === 0) throw new StreamUnreadable('no server-sent events in the captured body');
  if (events.length > MAX_EVENTS) throw new StreamUnreadable(`more than ${MAX_EVENTS} events`);
  const budget = patchBudget(body.length);
  const roots: JsonObject[] = [];
  const byChannel = new Map<number, JsonObject>();
  let encoding: string | null = null;
  let sticky = { p: '', o: 'add' };
  let channel = 0;
  let done = false;
  let unplaced = 0;
  let deltas = 0;
  const addRoot = (c: number, v: JsonObject) => {
    roots.push(v);
    byChannel.set(c, v);
  };
  for (const ev of events) {
    if (ev.data === '[DONE]') {
      done = true;
      continue;
    }
    let d: Json;
    try {
      d = JSON.parse(ev.data) as Json;
    } catch {
      throw new StreamUnreadable('an event whose data is not JSON');
    }
    if (ev.event === 'delta_encoding') {
      encoding = typeof d === 'string' ? d : '';
      if (encoding !== 'v1') throw new StreamUnreadable(`unknown delta encoding ${JSON.stringify(encoding)}`);
      continue;
    }
    if (!isObject(d)) continue;
    if (typeof d.type === 'string' && !('v' in d)) {
      if (d.type === 'message_stream_complete') done = true;
      continue;
    }
    if (encoding === null) {
      // The older form: each event a whole root.
      if (isObject(d.message)) addRoot(channel, d);
      continue;
    }
    deltas++;
    if (typeof d.c === 'number') channel = d.c;
    const p = typeof d.p === 'string' ? d.p : sticky.p;
    const o = typeof d.o === 'string' ? d.o : sticky.o;
    sticky = { p, o };
    if (p === '' && o === 'add') {
      if (isObject(d.v)) addRoot(channel, d.v);
      else unplaced++;
      continue;
    }
    const root = byChannel.get(channel);
    if (!root) {
      unplaced++;
      continue;
    }
    if (o === 'patch') {
      if (!Array.isArray(d.v)) {
        unplaced++;
        continue;
      }
      for (const op of d.v) {
        if (
          !isObject(op) ||
          typeof op.p !== 'string' ||
          typeof op.o !== 'string' ||
          !applyPatch(root, op.p, op.o, op.v, budget)
        )
          unplaced++;
      }
    } else if (!applyPatch(root, p, o, d.v, budget)) unplaced++;
  }
  // Operations we could not place mean a dialect we do not know: the text would be missing pieces.
  if (unplaced > Math.max(3, deltas / 10)) throw new StreamUnreadable(`${unplaced} of ${deltas} deltas not understood`);

  const messages = roots.map((r) => r.message).filter(isObject);
  const answer = messages.filter(isFinalAnswer).at(-1);
  if (!answer) throw new StreamUnreadable('no assistant answer in the stream');
  const status = answer.status;
  if (!done && status !== 'finished_successfully')
    throw new StreamUnreadable('the stream ended before the answer finished');
  const content = answer.content as JsonObject;
  const parts = Array.isArray(content.parts) ? content.parts.filter((x): x is string => typeof x === 'string') : [];
  const raw = parts.join('');
  if (raw.trim() === '') throw new StreamUnreadable('the assistant answer is empty');

  const metadata = isObject(answer.metadata) ? answer.metadata : {};
  const cited = new SourceList();
  const products: ProductCard[] = [];
  const markdown = placeReferences(raw, metadata.content_references, cited, products);

  // What the turn searched: the queries and listed results of every message of the turn (the tool's and the answer's).
  const queries: string[] = [];
  const listed: Array<{ url: string; title: string | null; query: string | null }> = [];
  let searchedTool = false;
  for (const m of messages) {
    const md = isObject(m.metadata) ? m.metadata : null;
    if (!md) continue;
    collectQueries(md, queries);
    collectResults(md.search_result_groups, listed);
    const author = isObject(m.author) ? m.author : {};
    if (author.role === 'tool' && typeof author.name === 'string' && /^web(?:\.|$)/.test(author.name))
      searchedTool = true;
  }
  const searched = searchedTool || queries.length > 0 || listed.length > 0 || cited.sources.length > 0;
  const text = markdownToText(markdown.replace(/\[\d+\]/g, ''));
  return {
    markdown,
    text,
    sources: cited.sources,
    signals: {
      searchTriggered: searched,
      // Read whole, the stream says what it did: no search is [] searches; a search whose queries or listed results
      // the stream does not name stays unknown.
      ...(searched ? (queries.length > 0 ? { searchQueries: dedupe(queries) } : {}) : { searchQueries: [] }),
      ...(searched
        ? listed.length > 0
          ? { retrievedSources: uncited(listed, cited) }
          : {}
        : { retrievedSources: [] }),
      products,
    },
    stats: {
      events: events.length,
      deltas,
      unplaced,
      messages: messages.length,
      references: Array.isArray(metadata.content_references) ? metadata.content_references.length : 0,
      finished: status === 'finished_successfully',
    },
  };
}

/** The visible answer: an assistant text message to everyone, not its reasoning or a tool call. */
function isFinalAnswer(m: JsonObject): boolean {
  const author = isObject(m.author) ? m.author : null;
  const content = isObject(m.content) ? m.content : null;
  if (author?.role !== 'assistant' || content?.content_type !== 'text') return false;
  if (m.recipient !== undefined && m.recipient !== null && m.recipient !== 'all') return false;
  return m.channel === undefined || m.channel === null || m.channel === 'final';
}

/**
 * The answer text with each content reference replaced: a cited group of pages (`grouped_webpages`, `webpage`) by
 * its `[n]` markers, a product card (`products`, `product_entity`) by nothing (the card is collected), any other
 * reference by its `alt` text. A reference is placed by `start_idx`/`end_idx` (UTF-16 or code-point indexes, the
 * one under which the span is its `matched_text`); one that matches under neither is left out. The app's private-use
 * citation marks (U+E200 … U+E201) left over are removed. Linear: references are sorted once and the text is cut
 * once.
 */
function placeReferences(raw: string, refsValue: Json | undefined, cited: SourceList, products: ProductCard[]): string {
  const refs = (Array.isArray(refsValue) ? refsValue : []).slice(0, MAX_REFS).filter(isObject);
  let cpIndex: number[] | null = null;
  const spans: Array<{ start: number; end: number; ref: JsonObject }> = [];
  for (const ref of refs) {
    const matched = typeof ref.matched_text === 'string' ? ref.matched_text : null;
    const s = ref.start_idx;
    const e = ref.end_idx;
    if (!matched || typeof s !== 'number' || typeof e !== 'number' || s < 0 || e < s) continue;
    if (raw.slice(s, e) === matched) {
      spans.push({ start: s, end: e, ref });
      continue;
    }
    cpIndex ??= codePointOffsets(raw);
    const s16 = cpIndex[s];
    const e16 = cpIndex[e];
    if (s16 !== undefined && e16 !== undefined && raw.slice(s16, e16) === matched)
      spans.push({ start: s16, end: e16, ref });
  }
  spans.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, end, ref } of spans) {
    if (start < at) continue; // overlapping references: the first one placed wins
    out += raw.slice(at, start) + replacementOf(ref, cited, products);
    at = end;
  }
  out += raw.slice(at);
  return out.replace(/\ue200[^\ue200\ue201]*\ue201/g, '').replace(/[\ue200-\ue203]/g, '');
}

function replacementOf(ref: JsonObject, cited: SourceList, products: ProductCard[]): string {
  const type = typeof ref.type === 'string' ? ref.type : '';
  if (type === 'grouped_webpages' || type === 'webpage' || type === 'grouped_webpages_model_predicted_fallback') {
    const items = Array.isArray(ref.items) ? ref.items : [ref];
    const marks: number[] = [];
    for (const it of items) {
      if (!isObject(it)) continue;
      const url = str(it.url);
      const pos = url ? cited.cite(url, str(it.title)) : null;
      if (pos !== null && !marks.includes(pos)) marks.push(pos);
    }
    return marks.map((n) => `[${n}]`).join('');
  }
  if (type === 'products' || type === 'product_entity' || type === 'product') {
    const list = Array.isArray(ref.products) ? ref.products : [ref.product ?? ref];
    for (const p of list) {
      const card = productOf(p, products.length + 1);
      if (card) products.push(card);
    }
    return '';
  }
  return typeof ref.alt === 'string' ? ref.alt : '';
}

/** UTF-16 offset of each code-point index of `s` (and of its end). */
function codePointOffsets(s: string): number[] {
  const out: number[] = [];
  let i = 0;
  for (const ch of s) {
    out.push(i);
    i += ch.length;
  }
  out.push(i);
  return out;
}

/** Queries as the app lists them: `search_model_queries.queries` or `search_queries[].q`. */
function collectQueries(md: JsonObject, into: string[]): void {
  const model = md.search_model_queries;
  if (isObject(model) && Array.isArray(model.queries))
    for (const q of model.queries) if (str(q)) into.push(q as string);
  if (Array.isArray(md.search_queries))
    for (const q of md.search_queries) {
      const s = isObject(q) ? str(q.q) : str(q);
      if (s) into.push(s);
    }
}

/** `search_result_groups[].entries[]`: the results the search listed, `{url, title}`. */
function collectResults(
  groups: Json | undefined,
  into: Array<{ url: string; title: string | null; query: string | null }>,
) {
  if (!Array.isArray(groups)) return;
  for (const g of groups) {
    if (!isObject(g) || !Array.isArray(g.entries)) continue;
    for (const e of g.entries) {
      if (!isObject(e)) continue;
      const url = str(e.url);
      if (url) into.push({ url, title: str(e.title), query: null });
    }
  }
}

function dedupe(xs: readonly string[]): string[] {
  return [...new Set(xs.map((x) => x.trim()))];
}
