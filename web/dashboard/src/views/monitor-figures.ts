import type { MonitorMetricsPoint } from '../../../../packages/client/src/types.js';
import type { ChartSeries } from '../components/line-chart.js';

/** The counts a point of the series rests on (docs/analysis.md §6.3). */
interface Counts {
  answers?: number;
  mentioningAnswers?: number;
  brandAnswerPairs?: number;
  citations?: number;
}
interface DomainCount {
  domain: string;
  citations: number;
  answers?: number;
  owner?: string | null;
}

export interface MonitorCharts {
  /** Run times, oldest first: one x per run with figures. */
  xs: string[];
  mentionRate: ChartSeries[];
  shareOfVoice: ChartSeries[];
  /** What the charts rest on: the answers of the chosen runs and countries, and those naming the brand. */
  answers: number;
  mentioning: number;
}

/**
 * The charts' lines: one per engine, over the chosen countries. Figures of several countries are pooled from their
 * counts (mentioning answers over answers; mentioning answers over brand-answer pairs), so a country with more answers
 * weighs more, exactly as one group of those answers would (§6.3); with one country they are its own figures.
 */
export function chartsOf(points: MonitorMetricsPoint[], country: string | null): MonitorCharts {
  const chosen = points.filter((p) => country === null || p.country === country);
  const xs = [...new Set(chosen.map((p) => p.slotAt ?? ''))].sort();
  const at = new Map(xs.map((x, i) => [x, i]));
  const engines = [...new Set(chosen.map((p) => p.engine ?? ''))].sort();
  const sums = new Map<string, Array<{ answers: number; mentioning: number; pairs: number }>>();
  for (const e of engines)
    sums.set(
      e,
      xs.map(() => ({ answers: 0, mentioning: 0, pairs: 0 })),
    );
  for (const p of chosen) {
    const c = (p.counts ?? {}) as Counts;
    const cell = sums.get(p.engine ?? '')?.[at.get(p.slotAt ?? '') ?? -1];
    if (!cell) continue;
    cell.answers += c.answers ?? 0;
    cell.mentioning += c.mentioningAnswers ?? 0;
    cell.pairs += c.brandAnswerPairs ?? 0;
  }
  const line = (f: (c: { answers: number; mentioning: number; pairs: number }) => number | null): ChartSeries[] =>
    engines.map((e) => ({ label: e, values: (sums.get(e) ?? []).map(f) }));
  const cells = [...sums.values()].flat();
  return {
    xs,
    answers: cells.reduce((s, c) => s + c.answers, 0),
    mentioning: cells.reduce((s, c) => s + c.mentioning, 0),
    mentionRate: line((c) => (c.answers > 0 ? c.mentioning / c.answers : null)),
    shareOfVoice: line((c) => (c.pairs > 0 ? c.mentioning / c.pairs : null)),
  };
}

export interface DomainRow {
  domain: string;
  citations: number;
  share: number;
  owner: string | null;
}

/**
 * Cited domains over the chosen runs and countries: each point's top domains summed. A point lists its top ten only,
 * so a domain's count here is a floor; the share is of every citation those points counted.
 */
export function topDomainsOf(points: MonitorMetricsPoint[], country: string | null, n = 15): DomainRow[] {
  const chosen = points.filter((p) => country === null || p.country === country);
  const total = chosen.reduce((s, p) => s + ((p.counts as Counts | undefined)?.citations ?? 0), 0);
  const byDomain = new Map<string, DomainRow>();
  for (const p of chosen)
    for (const d of (p.topCitedDomains ?? []) as unknown as DomainCount[]) {
      const row = byDomain.get(d.domain) ?? { domain: d.domain, citations: 0, share: 0, owner: d.owner ?? null };
      row.citations += d.citations;
      byDomain.set(d.domain, row);
    }
  const rows = [...byDomain.values()].sort((a, b) => b.citations - a.citations || (a.domain < b.domain ? -1 : 1));
  for (const r of rows) r.share = total > 0 ? r.citations / total : 0;
  return rows.slice(0, n);
}
