import { engineRow, isAnalysisTaskType } from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';
import type { TaskPayload } from '../domain/task.js';
import type { EngineResult } from './adapter.js';
import type { AnswerSignals } from './engine-result.js';
import { escapeHtml } from '../text/html-escape.js';

/**
 * Turns an adapter's result into the client `response`: `text`, `markdown`, `sources` and the
 * engine's extra members. Engines that honour `include` flags add `rawResponse` / `html` on request
 * and drop `markdown` when `include.markdown` is false; other engines ignore the flags silently.
 * Analysis tasks (SOURCE_INFLUENCE, PROMPT_RESEARCH) answer with their own result shape
 * (docs/analysis.md#s2-12, #s3-13), carried whole in `extra`.
 */
export function clientResponse(
  taskType: TaskType,
  payload: TaskPayload,
  r: EngineResult,
  served?: ServedRegion,
): Record<string, unknown> {
  if (isAnalysisTaskType(taskType)) return { ...r.extra };
  const row = engineRow(taskType);
  const honoured = row.includeFlags;
  const inc = payload.include ?? {};
  const out: Record<string, unknown> = { text: r.text };
  if (!(honoured.includes('markdown') && inc.markdown === false)) out.markdown = r.markdown;
  out.sources = r.sources;
  if (r.extra) Object.assign(out, r.extra);
  if (row.answers) Object.assign(out, answerSignals(r.signals));
  if (served) out.region = { requested: served.requested, exit: served.exit, engine: r.locale ?? null };
  if (honoured.includes('rawResponse') && inc.rawResponse === true) out.rawResponse = r.raw;
  if (honoured.includes('html') && inc.html === true) out.html = markdownToHtml(r.markdown);
  return out;
}

/** Where an attempt was served from (docs/contract.md#region): the country asked for and the exit address's. */
export interface ServedRegion {
  /** The task's `country`, or null when the client named none. */
  requested: string | null;
  /** The country of the exit address the upstream was called through. */
  exit: string;
}

/** Every answer signal, null where the engine did not read it. */
function answerSignals(s: Partial<AnswerSignals> | undefined): Record<keyof AnswerSignals, unknown> {
  return {
    searchQueries: s?.searchQueries ?? null,
    searchTriggered: s?.searchTriggered ?? null,
    retrievedSources: s?.retrievedSources ?? null,
    products: s?.products ?? null,
    ads: s?.ads ?? null,
    places: s?.places ?? null,
  };
}

/** Small Markdown renderer for the `html` flag: paragraphs, headings, lists, links, emphasis, code. */
function markdownToHtml(md: string): string {
  const inline = (s: string) =>
    escapeHtml(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      // Neither the label nor the URL crosses a bracket: each `[` of a line without its closer would
      // otherwise rescan the line to its end (quadratic on `[a](http:` repeated).
      .replace(/\[([^[\]]+)\]\((https?:[^)\s[\]]+)\)/g, '<a href="$2">$1</a>');
  const out: string[] = [];
  let list: 'ul' | 'ol' | null = null;
  const closeList = () => {
    if (list) out.push(`</${list}>`);
    list = null;
  };
  for (const line of md.split('\n')) {
    // The text after the marker starts at a non-space, so the whitespace before it is taken one way only.
    const h = /^(#{1,6})\s+((?:\S.*)?)$/.exec(line);
    const ul = /^\s*[-*]\s+((?:\S.*)?)$/.exec(line);
    const ol = /^\s*\d+\.\s+((?:\S.*)?)$/.exec(line);
    if (h?.[1] && h[2] !== undefined) {
      closeList();
      out.push(`<h${h[1].length}>${inline(h[2])}</h${h[1].length}>`);
    } else if (ul?.[1] !== undefined || ol?.[1] !== undefined) {
      const kind = ul ? 'ul' : 'ol';
      if (list !== kind) {
        closeList();
        out.push(`<${kind}>`);
        list = kind;
      }
      out.push(`<li>${inline((ul?.[1] ?? ol?.[1]) as string)}</li>`);
    } else if (line.trim() === '') {
      closeList();
    } else {
      closeList();
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  closeList();
  return out.join('\n');
}
