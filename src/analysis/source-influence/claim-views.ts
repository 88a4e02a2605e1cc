import type { SourceInfluenceConfig } from '../config.js';
import { excerpt, round4, type Language } from '../text/norm.js';
import { sentences } from '../text/segment.js';
import { tokenize } from '../text/tokens.js';
import type { AnalysisCore } from './core.js';
import { misciteSupporters } from './metrics.js';
import type { Passage } from './passages.js';
import type { Claim, SourceEvidence } from './result-types.js';

/** The result's views of the answer's units: each claim with the judge's labels, each source's evidence. */

function supportLevel(s: number, cfg: SourceInfluenceConfig): 'full' | 'partial' | 'none' {
  return s >= cfg.tauFull ? 'full' : s >= cfg.tauPartial ? 'partial' : 'none';
}

/** Up to 300 characters of the passage, starting at the sentence that shares most tokens with the unit. */
function focusedExcerpt(passageText: string, unitText: string, lang: Language): string {
  const unitTokens = new Set(tokenize(unitText).tokens);
  let bestStart = 0;
  let bestHits = -1;
  for (const s of sentences(passageText, lang)) {
    const hits = new Set(tokenize(s.text).tokens.filter((t) => unitTokens.has(t))).size;
    if (hits > bestHits) {
      bestHits = hits;
      bestStart = s.start;
    }
  }
  return excerpt(passageText.slice(bestStart), 300);
}

/** The (up to) three answer units source `j` weighs most in, with the passage of the source that matches each. */
export function evidenceOf(core: AnalysisCore, j: number, cfg: SourceInfluenceConfig): SourceEvidence[] {
  return core.units
    .map((u, ui) => ({ ui, weight: (core.weights[ui]?.[j] ?? 0) * u.words }))
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.ui - b.ui)
    .slice(0, 3)
    .map(({ ui }) => {
      const unit = core.segmented.units[ui];
      const al = core.alignments[ui];
      const s = al?.support[j] ?? 0;
      const bestIdx = al?.best[j] ?? null;
      const passage: Passage | undefined = bestIdx === null ? undefined : core.passages[bestIdx];
      return {
        unitIndex: ui,
        answerExcerpt: excerpt(unit?.plainText ?? '', 240),
        sourceExcerpt: passage ? focusedExcerpt(passage.text, unit?.plainText ?? '', passage.language) : null,
        support: round4(s),
        level: supportLevel(s, cfg),
        cited: core.units[ui]?.cited.has(j) ?? false,
      };
    });
}

/**
 * The per-claim view: every unit of the answer with its text and position, the sources it cites, and for every source
 * with text the judge's label, score, evidence passage and reason, plus the `miscited` flag and the sources that
 * support it without being cited (uncited support).
 */
export function claimsOf(core: AnalysisCore, cfg: SourceInfluenceConfig): Claim[] {
  const readable = core.sources.map((s, j) => ({ s, j })).filter(({ s }) => !s.duplicateOf && s.text.source !== 'none');
  return core.units.map((u, ui) => {
    const unit = core.segmented.units[ui];
    const al = core.alignments[ui];
    const sourceOf = (j: number) => core.sources[j]?.sourceId ?? `c${j + 1}`;
    const supporters = misciteSupporters(u, cfg);
    const judged = readable.map(({ s, j }) => {
      const jd = al?.judgements[j];
      const label = jd?.label ?? 'unsupported';
      // An uncited page that does not support the claim has no evidence worth its bytes (answers × pages).
      const showEvidence = label !== 'unsupported' || u.cited.has(j);
      return {
        j,
        sourceId: s.sourceId,
        cited: u.cited.has(j),
        label,
        confidence: jd?.confidence === null || jd?.confidence === undefined ? null : round4(jd.confidence),
        score: round4(jd?.score ?? 0),
        support: round4(al?.support[j] ?? 0),
        evidence: showEvidence && jd?.evidence ? excerpt(jd.evidence, 300) : null,
        reason: jd?.reason ?? null,
        changed: jd?.changed ?? null,
        judge: jd?.judge ?? 'lexical',
        weight: round4(core.weights[ui]?.[j] ?? 0),
      };
    });
    return {
      claimId: `u${ui + 1}`,
      index: ui,
      text: unit?.plainText ?? '',
      start: unit?.start ?? 0,
      end: (unit?.start ?? 0) + (unit?.text.length ?? 0),
      words: u.words,
      trivial: al?.trivial ?? true,
      cites: [...u.cited].sort((a, b) => a - b).map(sourceOf),
      miscited: supporters.length > 0,
      supportedBy: judged.filter((x) => x.label === 'supported').map((x) => x.sourceId),
      // Uncited pages that support the claim: labelled supported, or the pages a miscited claim's content is on.
      uncitedSupport: judged
        .filter((x) => !x.cited && (x.label === 'supported' || supporters.includes(x.j)))
        .map((x) => x.sourceId),
      contradictedBy: judged.filter((x) => x.label === 'contradicted').map((x) => x.sourceId),
      sources: judged.map(({ j: _, ...rest }) => rest),
    };
  });
}
