import type { SourceInfluenceConfig } from '../config.js';
import { level } from './metrics.js';

export type InfluenceLevel = 'high' | 'medium' | 'low' | 'none';

/** What a source's level rests on besides its share: the judge's labels of the claims, as `claims[]` shows them. */
export interface LevelFacts {
  /** Claims it is cited for. */
  citedUnits: number;
  /** Claims the judge labels `supported` / `partial` for it (cited or not). */
  supportedUnits: number;
  partialUnits: number;
  /** Passages read from it (0: no text, not even a snippet). */
  passages: number;
}

/**
 * A source's influence level (docs/analysis.md §2.8). The share alone (`levelByShare`: `high` ≥ 0.20, `medium`
 * ≥ 0.08) counts citations as one signal, so a source cited for every claim takes a large share even when its text
 * supports none of them, and the page would call it "high" beside claims that say no source supports them. The
 * level shown therefore never says more than the claims do: `high` needs a claim the source supports fully,
 * `medium` one it supports at least partly; otherwise the level is at most `low`, and `levelNote` says why.
 */
export function influenceLevel(
  share: number,
  f: LevelFacts,
  cfg: SourceInfluenceConfig,
): { level: InfluenceLevel; levelByShare: InfluenceLevel; levelNote: string | null } {
  const byShare = level(share, cfg);
  const cap: InfluenceLevel = f.supportedUnits > 0 ? 'high' : f.partialUnits > 0 ? 'medium' : 'low';
  const order: InfluenceLevel[] = ['none', 'low', 'medium', 'high'];
  if (order.indexOf(byShare) <= order.indexOf(cap)) return { level: byShare, levelByShare: byShare, levelNote: null };
  return { level: cap, levelByShare: byShare, levelNote: note(byShare, cap, f) };
}

function note(byShare: InfluenceLevel, cap: InfluenceLevel, f: LevelFacts): string {
  const claims = (n: number) => `${n} claim${n === 1 ? '' : 's'}`;
  const cited = f.citedUnits > 0 ? `It is cited for ${claims(f.citedUnits)}, but ` : '';
  const why =
    f.passages === 0
      ? `${cited}no text of it could be read, so no claim rests on its content`
      : f.partialUnits > 0
        ? `${cited}it supports no claim fully (${claims(f.partialUnits)} partly)`
        : `${cited}its text supports no claim of the answer`;
  const first = why.charAt(0).toUpperCase() + why.slice(1);
  return `${first}: its share alone would rate it ${byShare}; the level is held at ${cap}.`;
}
