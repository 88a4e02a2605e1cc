import { describe, expect, it } from 'vitest';
import { THRESHOLD_JUDGE } from './threshold-judge.js';
import { analyzeSourceInfluence } from '../../src/analysis/source-influence/analyze.js';
import { readPageRecord } from '../../src/analysis/source-influence/page-record.js';
import type { CitationIn, FetchRecord } from '../../src/analysis/source-influence/types.js';

/**
 * A source's influence level never says more than the per-claim labels (docs/analysis.md §2.8): `high` needs a
 * claim it supports fully, `medium` one it supports at least partly; a source cited for every claim whose text
 * supports none is held at `low`, and `levelNote` says why. The whole analysis runs on real page text.
 */

const cfg = THRESHOLD_JUDGE;

async function analyze(answer: string, citations: CitationIn[], pages: string[]): Promise<any> {
  const records: FetchRecord[] = pages.map((t) => readPageRecord(t));
  return (await analyzeSourceInfluence({ answer, prompt: null, citations, analysis: null }, records, cfg)).result;
}

const LEVELS = ['none', 'low', 'medium', 'high'];

/** The rule as a reader checks it on the page: each source's level against the labels of the claims. */
function consistent(result: any): void {
  for (const src of result.sources) {
    const labels = (result.claims as any[]).flatMap((c) =>
      (c.sources as any[]).filter((x) => x.sourceId === src.sourceId).map((x) => x.label),
    );
    const cap = labels.includes('supported') ? 'high' : labels.includes('partial') ? 'medium' : 'low';
    expect(LEVELS.indexOf(src.influence.level)).toBeLessThanOrEqual(LEVELS.indexOf(cap));
    expect(src.influence.levelNote === null).toBe(src.influence.level === src.influence.levelByShare);
  }
}

describe('influence levels agree with the claims', () => {
  const answer =
    'The Brooks Ghost 16 weighs 269 grams and has a 12 mm drop [1]. ' +
    'Runners praise its soft DNA Loft v3 foam for easy miles [2]. ' +
    'The Hoka Clifton 9 is lighter at 248 grams [3].';
  const citations = [
    { url: 'https://one.example.com/ghost' },
    { url: 'https://two.example.org/foam' },
    { url: 'https://three.example.net/clifton' },
  ];

  it('holds sources whose pages support nothing at low, with the reason, though their shares are large', async () => {
    const unrelated = [
      'Our bakery opens at seven. Fresh bread, croissants and pastries are baked every morning by hand.',
      'The city council met on Tuesday to discuss the new bus routes and the parking fees downtown.',
      'Tomatoes grow best in full sun with regular watering; stake the plants as they get taller.',
    ];
    const r = await analyze(answer, citations, unrelated);
    // Every claim: no source supports it.
    for (const c of r.claims) expect(c.supportedBy).toEqual([]);
    // By share they would read high, high and medium (citations split the claims' words among them).
    expect(r.sources.map((s: any) => s.influence.levelByShare)).toEqual(['high', 'high', 'medium']);
    for (const s of r.sources) {
      expect(s.influence.level).toBe('low');
      expect(s.influence.levelNote).toMatch(/^It is cited for 1 claim, but its text supports no claim of the answer/);
    }
    consistent(r);
  });

  it('keeps high for a source that fully supports a claim it is cited for', async () => {
    const pages = [
      'Brooks Ghost 16 review. The Brooks Ghost 16 weighs 269 grams and has a 12 mm drop, with a soft ride.',
      'Runners praise its soft DNA Loft v3 foam for easy miles and long recovery runs in the Ghost.',
      'Weather report: light rain tomorrow, sunny by the weekend, and a cold front next week.',
    ];
    const r = await analyze(answer, citations, pages);
    const [ghost, foam, weather] = r.sources;
    expect(ghost.influence).toMatchObject({ level: 'high', levelByShare: 'high', levelNote: null });
    expect(foam.influence.level).toBe(foam.influence.levelByShare);
    expect(weather.influence).toMatchObject({ level: 'low' });
    expect(weather.influence.levelByShare).not.toBe('low');
    consistent(r);
  });
});
