import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult, Source } from '../adapter.js';
import type { RetrievedSource } from '../engine-result.js';
import { markdownToText } from '../common/markdown-text.js';
import { displayHost, normalizeSourceUrl } from '../common/urls.js';

interface SonarSearchResult {
  url?: unknown;
  title?: unknown;
}
interface SonarResponse {
  choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>;
  citations?: unknown;
  search_results?: unknown;
}

/**
 * Parses a Perplexity Sonar chat completion (docs/engines.md#perplexity-sonar). Inline markers `[k]` are 1-based
 * indexes into `search_results` (fallback `citations`); sources are renumbered by first marker
 * appearance and the markers in `markdown` are rewritten to the new positions.
 */
export function parseSonar(body: unknown): EngineResult {
  const r = body as SonarResponse;
  if (!r || typeof r !== 'object' || !Array.isArray(r.choices)) {
    throw new UpstreamFailure('LAYOUT_CHANGED', 'sonar: no choices array in the response');
  }
  const content = r.choices[0]?.message?.content;
  if (typeof content !== 'string')
    throw new UpstreamFailure('LAYOUT_CHANGED', 'sonar: choices[0].message.content is not a string');
  const answer = content.replace(/^\s*<think>[\s\S]*?<\/think>\s*/, '');
  if (answer.trim() === '') throw new UpstreamFailure('NO_ANSWER', 'sonar: empty answer');

  const refs: Array<{ url: string; title: string | null }> = [];
  if (Array.isArray(r.search_results) && r.search_results.length > 0) {
    for (const s of r.search_results as SonarSearchResult[]) {
      if (typeof s?.url === 'string') refs.push({ url: s.url, title: typeof s.title === 'string' ? s.title : null });
    }
  } else if (Array.isArray(r.citations)) {
    for (const c of r.citations) if (typeof c === 'string') refs.push({ url: c, title: null });
  }

  const positions = new Map<number, number>(); // 1-based ref index -> our position
  const byUrl = new Map<string, number>();
  const sources: Source[] = [];
  const dropped: string[] = [];
  const markdown = answer.replace(/\[(\d{1,3})\]/g, (m, k: string) => {
    const idx = Number(k);
    const ref = refs[idx - 1];
    if (!ref) {
      dropped.push(m);
      return '';
    }
    let pos = positions.get(idx);
    if (pos === undefined) {
      const url = normalizeSourceUrl(ref.url);
      pos = byUrl.get(url);
      if (pos === undefined) {
        pos = sources.length + 1;
        byUrl.set(url, pos);
        sources.push({ position: pos, url, label: ref.title ?? displayHost(url) });
      }
      positions.set(idx, pos);
    }
    return `[${pos}]`;
  });
  // The listed results no marker cites were read but not cited; Sonar names no queries. Without any list, what it
  // read is unknown (null), not nothing.
  const listed = [r.search_results, r.citations].filter(Array.isArray);
  const retrievedSources: RetrievedSource[] | null = listed.length > 0 ? [] : null;
  const seen = new Set(byUrl.keys());
  refs.forEach((ref, i) => {
    const url = normalizeSourceUrl(ref.url);
    if (positions.has(i + 1) || seen.has(url)) return;
    seen.add(url);
    retrievedSources?.push({ position: retrievedSources.length + 1, url, title: ref.title, query: null });
  });
  return {
    text: markdownToText(markdown.replace(/\[\d+\]/g, '')),
    markdown,
    sources,
    signals: {
      ...(retrievedSources ? { retrievedSources } : {}),
      // Sonar searches unless told not to: results or citations listed mean it searched, empty lists that it did not.
      ...(listed.length > 0 ? { searchTriggered: listed.some((l) => l.length > 0) } : {}),
    },
    raw: { response: body, droppedMarkers: dropped },
  };
}
