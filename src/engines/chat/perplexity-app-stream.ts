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
import { applyPatch, isObject, type Json, type JsonObject, forbiddenKey, patchBudget } from './json-patch.js';
import { decodeSse } from './sse-decoder.js';

const MAX_EVENTS = 100_000;
const MAX_PATCHES_PER_EVENT = 10_000;

/**
 * Reads Perplexity's answer stream (`POST /rest/sse/perplexity_ask`, docs/engines.md#perplexity-app-stream): server-
 * sent `message` events, each `{status, final_sse_message?, blocks: [...]}`, a block named by its `intended_usage`
 * and carrying one field whole (`markdown_block`, `web_result_block`, `plan_block`, `shopping_block`) or a
 * `diff_block` `{field, patches}` of RFC 6902 operations on that field; `end_of_stream` ends it.
 *
 * The answer is the `ask_text` block's `markdown_block` (`answer`, else its `chunks` joined). Its `[k]` markers are
 * 1-based indexes into the web results; sources are renumbered by first citation, as Sonar's are. Searches are the
 * plan's `SEARCH_WEB` steps' queries; retrieved sources the web results no marker cites; products the shopping
 * block's cards. One pass over the events; each patch costs its path and value.
 *
 * Throws StreamUnreadable when the stream does not hold a finished answer in a form we know.
 */
export function readPerplexityStream(body: string): StreamAnswer {
  const events = decodeSse([body]);
  if (events.length === 0) throw new StreamUnreadable('no server-sent events in the captured body');
  if (events.length > MAX_EVENTS) throw new StreamUnreadable(`more than ${MAX_EVENTS} events`);
  const budget = patchBudget(body.length);
  const blocks = new Map<string, JsonObject>();
  let done = false;
  let messages = 0;
  let unplaced = 0;
  let patches = 0;
  for (const ev of events) {
    if (ev.event === 'end_of_stream') {
      done = true;
      continue;
    }
    if (ev.event !== 'message') continue;
    let d: Json;
    try {
      d = JSON.parse(ev.data) as Json;
    } catch {
      throw new StreamUnreadable('a message event whose data is not JSON');
    }
    if (!isObject(d)) continue;
    messages++;
    if (d.status === 'COMPLETED' || d.final_sse_message === true) done = true;
    if (!Array.isArray(d.blocks)) continue;
    for (const b of d.blocks) {
      if (!isObject(b)) continue;
      const usage = str(b.intended_usage) ?? '';
      const state = blocks.get(usage) ?? {};
      blocks.set(usage, state);
      for (const [k, v] of Object.entries(b)) if (k.endsWith('_block') && k !== 'diff_block') state[k] = v;
      const diff = b.diff_block;
      if (!isObject(diff)) continue;
      const field = str(diff.field);
      if (!field || !Array.isArray(diff.patches) || diff.patches.length > MAX_PATCHES_PER_EVENT) {
        unplaced++;
        continue;
      }
      // A field names one of the block's own members, never one a prototype lends it (`__proto__`).
      if (forbiddenKey(field)) {
        unplaced++;
        continue;
      }
      let target = Object.hasOwn(state, field) ? state[field] : undefined;
      if (!isObject(target)) {
        target = {};
        state[field] = target;
      }
      for (const p of diff.patches) {
        patches++;
        if (!isObject(p) || typeof p.op !== 'string' || typeof p.path !== 'string') {
          unplaced++;
          continue;
        }
        if (p.path === '' && (p.op === 'replace' || p.op === 'add') && isObject(p.value)) {
          target = p.value;
          state[field] = target;
        } else if (!applyPatch(target, p.path, p.op, p.value, budget)) unplaced++;
      }
    }
  }
  if (unplaced > Math.max(3, patches / 10))
    throw new StreamUnreadable(`${unplaced} of ${patches} patches not understood`);
  if (!done) throw new StreamUnreadable('the stream ended before the answer was complete');

  const md = blocks.get('ask_text')?.markdown_block;
  const answer = isObject(md) ? answerOf(md) : null;
  if (!answer || answer.trim() === '') throw new StreamUnreadable('no answer text in the stream');

  const results: Array<{ url: string; title: string | null; query: string | null }> = [];
  const queries: string[] = [];
  const products: ProductCard[] = [];
  for (const state of blocks.values()) {
    const web = state.web_result_block;
    if (isObject(web) && Array.isArray(web.web_results))
      for (const r of web.web_results) {
        if (!isObject(r)) continue;
        const url = str(r.url);
        if (url) results.push({ url, title: str(r.name) ?? str(r.title), query: null });
      }
    const plan = state.plan_block;
    if (isObject(plan) && Array.isArray(plan.steps))
      for (const s of plan.steps) {
        if (!isObject(s) || s.step_type !== 'SEARCH_WEB') continue;
        const c = s.search_web_content;
        if (isObject(c) && Array.isArray(c.queries))
          for (const q of c.queries) {
            const t = isObject(q) ? str(q.query) : str(q);
            if (t) queries.push(t.trim());
          }
      }
    const shop = state.shopping_block;
    if (isObject(shop) && Array.isArray(shop.products))
      for (const p of shop.products) {
        const card = productOf(p, products.length + 1);
        if (card) products.push(card);
      }
  }

  const cited = new SourceList();
  const positions = new Map<number, number | null>();
  const markdown = answer.replace(/\[(\d{1,3})\]/g, (_m, k: string) => {
    const idx = Number(k);
    let pos = positions.get(idx);
    if (pos === undefined) {
      const r = results[idx - 1];
      pos = r ? cited.cite(r.url, r.title) : null;
      positions.set(idx, pos);
    }
    return pos === null ? '' : `[${pos}]`;
  });
  const searched = results.length > 0 || queries.length > 0;
  return {
    markdown,
    text: markdownToText(markdown.replace(/\[\d+\]/g, '')),
    sources: cited.sources,
    signals: {
      searchTriggered: searched,
      // The stream read whole: no search is none; a search whose queries it does not list stays unknown.
      ...(queries.length > 0 ? { searchQueries: [...new Set(queries)] } : searched ? {} : { searchQueries: [] }),
      retrievedSources: uncited(results, cited),
      products,
    },
    stats: { events: events.length, messages, patches, unplaced, results: results.length },
  };
}

function answerOf(md: JsonObject): string | null {
  const answer = str(md.answer);
  if (answer) return answer;
  return Array.isArray(md.chunks) ? md.chunks.filter((c): c is string => typeof c === 'string').join('') : null;
}
