import type { AnalysisCore } from './core.js';
import type { SourceInfluenceInput, Warning } from './types.js';

/** The result's warnings about the sources and the answer's markers, in the order of docs/analysis.md#s2-12. */
export function warningsOf(core: AnalysisCore, input: SourceInfluenceInput): Warning[] {
  const w: Warning[] = [];
  for (const s of core.sources) {
    if (s.duplicateOf) {
      w.push({
        code: 'DUPLICATE_CITATION',
        sourceId: s.sourceId,
        message: `Same URL as ${s.duplicateOf}; its markers count for ${s.duplicateOf}.`,
      });
      continue;
    }
    const page = s.record?.page;
    if (page && page.status !== 'ok') {
      w.push({
        code: 'SOURCE_FETCH_FAILED',
        sourceId: s.sourceId,
        message: `Page not read (${page.status}${page.detail ? `: ${page.detail}` : ''}).`,
      });
    }
    if (s.text.source === 'snippet' || s.text.source === 'title') {
      w.push({
        code: 'SOURCE_SNIPPET_ONLY',
        sourceId: s.sourceId,
        message: `Aligned against the citation's ${s.text.source} only.`,
      });
    }
    if (page?.status === 'ok' && page.short)
      w.push({
        code: 'SOURCE_TEXT_SHORT',
        sourceId: s.sourceId,
        message: `Page text is short (${s.text.chars} characters); it is used as read.`,
      });
    if (s.text.truncated)
      w.push({
        code: 'SOURCE_TEXT_TRUNCATED',
        sourceId: s.sourceId,
        message: `Page text cut at ${s.text.chars} characters.`,
      });
  }
  if (core.mapping.invalidMarkers.length > 0) {
    w.push({
      code: 'INVALID_CITATION_MARKER',
      message: `${core.mapping.invalidMarkers.length} marker(s) point to no citation; they are ignored.`,
    });
  }
  if (input.citations.length > 0 && core.mapping.markerCount === 0) {
    w.push({
      code: 'NO_CITATION_MARKERS',
      message: 'The answer has no citation markers; influence comes from content alignment only.',
    });
  }
  if (input.citations.length > 0 && core.passages.length === 0) {
    w.push({ code: 'NO_SOURCE_TEXT', message: 'No source text, snippet or title was available to align against.' });
  }
  if (core.units.every((u) => u.alignment.trivial)) {
    w.push({ code: 'ANSWER_TRIVIAL', message: 'The answer has no unit with at least 3 content words.' });
  }
  return w;
}
