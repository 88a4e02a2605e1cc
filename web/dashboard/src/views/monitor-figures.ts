import type { MonitorMetricsPoint } from '../../../../packages/client/src/types.js';
import type { ChartSeries } from '../components/line-chart.js';

/** The counts a point of the series rests on (docs/analysis.md §6.3). */
interface Counts {
  answers?: number;
  mentioningAnswers?: number;
  brandAnswerPairs?: number;
  citations?: number;
  /** Answers whose engine says whether it searched, and those that did (§6.9; absent before visibility/1.3.0). */
  searchKnown?: number;
  searchedAnswers?: number;
  /** Answers whose engine lists what it read (§6.9). */
  retrievalKnown?: number;
}
interface DomainCount {
  domain: string;
  citations: number;
  answers?: number;
  owner?: string | null;
  retrievalRate?: number | null;
}

export interface MonitorCharts {
  /** Run times, oldest first: one x per run with figures. */
  xs: string[];
  mentionRate: ChartSeries[];
  shareOfVoice: ChartSeries[];
  /** Answers that searched over those whose engine says, per engine (§6.9); all null where no engine says. */
  searchRate: ChartSeries[];
  /** What the charts rest on: the answers of the chosen runs and countries, and those naming the brand. */
  answers: number;
  mentioning: number;
}

/** A figure of one point with its interval and weight (the answers or pairs it rests on), for pooling. */
interface Part {
  value: number;
  weight: number;
  low: number | null;
  high: number | null;
}

interface Cell {
  answers: number;
  mentioning: number;
  pairs: number;
  searchKnown: number;
  searched: number;
  rate: Part[];
  voice: Part[];
  search: Part[];
}

interface PointIntervals {
  mentionRate?: { low: number; high: number } | null;
  shareOfVoice?: { low: number; high: number } | null;
  searchRate?: { low: number; high: number } | null;
}

const Z95 = 1.959963984540054;

/**
 * The interval of a figure pooled over countries. One country: its own interval, as the service computed it. Several:
 * each country's interval read as a normal one (half-width / 1.96 as its standard error) and combined with the
 * pooled figure's weights, √Σ(wᵢ·seᵢ)², because countries are sampled independently; clipped to [0, 1]. Null when a
 * part has no interval (runs saved before intervals were kept).
 */
function pooledInterval(parts: Part[], pooled: number | null): { low: number | null; high: number | null } {
  const used = parts.filter((p) => p.weight > 0);
  if (pooled === null || used.length === 0 || used.some((p) => p.low === null || p.high === null))
    return { low: null, high: null };
  if (used.length === 1) return { low: used[0]?.low ?? null, high: used[0]?.high ?? null };
  const total = used.reduce((s, p) => s + p.weight, 0);
  const se = Math.sqrt(
    used.reduce((s, p) => s + ((p.weight / total) * (((p.high ?? 0) - (p.low ?? 0)) / (2 * Z95))) ** 2, 0),
  );
  return { low: Math.max(0, pooled - Z95 * se), high: Math.min(1, pooled + Z95 * se) };
}

/**
 * The charts' lines: one per engine, over the chosen countries, each with its 95% band. Figures of several countries
 * are pooled from their counts (mentioning answers over answers; mentioning answers over brand-answer pairs), so a
 * country with more answers weighs more, exactly as one group of those answers would (§6.3); with one country they
 * are its own figures and intervals.
 */
export function chartsOf(points: MonitorMetricsPoint[], country: string | null): MonitorCharts {
  const chosen = points.filter((p) => country === null || p.country === country);
  const xs = [...new Set(chosen.map((p) => p.slotAt ?? ''))].sort();
  const at = new Map(xs.map((x, i) => [x, i]));
  const engines = [...new Set(chosen.map((p) => p.engine ?? ''))].sort();
  const sums = new Map<string, Cell[]>();
  for (const e of engines)
    sums.set(
      e,
      xs.map(() => ({
        answers: 0,
        mentioning: 0,
        pairs: 0,
        searchKnown: 0,
        searched: 0,
        rate: [],
        voice: [],
        search: [],
      })),
    );
  for (const p of chosen) {
    const c = (p.counts ?? {}) as Counts;
    const cell = sums.get(p.engine ?? '')?.[at.get(p.slotAt ?? '') ?? -1];
    if (!cell) continue;
    const answers = c.answers ?? 0;
    const pairs = c.brandAnswerPairs ?? 0;
    const mentioning = c.mentioningAnswers ?? 0;
    cell.answers += answers;
    cell.mentioning += mentioning;
    cell.pairs += pairs;
    const iv = (p.intervals ?? {}) as PointIntervals;
    const part = (value: number, weight: number, i: { low: number; high: number } | null | undefined): Part => ({
      value,
      weight,
      low: i?.low ?? null,
      high: i?.high ?? null,
    });
    if (answers > 0) cell.rate.push(part(mentioning / answers, answers, iv.mentionRate));
    if (pairs > 0) cell.voice.push(part(mentioning / pairs, pairs, iv.shareOfVoice));
    const known = c.searchKnown ?? 0;
    cell.searchKnown += known;
    cell.searched += c.searchedAnswers ?? 0;
    if (known > 0) cell.search.push(part((c.searchedAnswers ?? 0) / known, known, iv.searchRate));
  }
  const line = (figure: (c: Cell) => number | null, parts: (c: Cell) => Part[]): ChartSeries[] =>
    engines.map((e) => {
      const cells = sums.get(e) ?? [];
      const values = cells.map(figure);
      const bands = cells.map((c, i) => pooledInterval(parts(c), values[i] ?? null));
      return { label: e, values, low: bands.map((b) => b.low), high: bands.map((b) => b.high) };
    });
  const cells = [...sums.values()].flat();
  return {
    xs,
    answers: cells.reduce((s, c) => s + c.answers, 0),
    mentioning: cells.reduce((s, c) => s + c.mentioning, 0),
    mentionRate: line(
      (c) => (c.answers > 0 ? c.mentioning / c.answers : null),
      (c) => c.rate,
    ),
    shareOfVoice: line(
      (c) => (c.pairs > 0 ? c.mentioning / c.pairs : null),
      (c) => c.voice,
    ),
    searchRate: line(
      (c) => (c.searchKnown > 0 ? c.searched / c.searchKnown : null),
      (c) => c.search,
    ),
  };
}

export interface DomainRow {
  domain: string;
  citations: number;
  share: number;
  owner: string | null;
  /** Answers citing it over all answers of the points that list it (§6.9); null before visibility/1.3.0. */
  citationRate: number | null;
  /** Answers that read it over the answers whose engine lists what it read (§6.9); null where none does. */
  retrievalRate: number | null;
}

/** A row's sums while the points are added up. */
interface DomainSums extends DomainRow {
  answers: number;
  answersOfPoints: number;
  read: number;
  readKnown: number;
}

/**
 * Cited domains over the chosen runs and countries: each point's top domains summed. A point lists its top ten only,
 * so a domain's count here is a floor; the share is of every citation those points counted.
 */
export function topDomainsOf(points: MonitorMetricsPoint[], country: string | null, n = 15): DomainRow[] {
  const chosen = points.filter((p) => country === null || p.country === country);
  const total = chosen.reduce((s, p) => s + ((p.counts as Counts | undefined)?.citations ?? 0), 0);
  const byDomain = new Map<string, DomainSums>();
  for (const p of chosen) {
    const c = (p.counts ?? {}) as Counts;
    for (const d of (p.topCitedDomains ?? []) as unknown as DomainCount[]) {
      const row = byDomain.get(d.domain) ?? {
        domain: d.domain,
        citations: 0,
        share: 0,
        owner: d.owner ?? null,
        citationRate: null,
        retrievalRate: null,
        answers: 0,
        answersOfPoints: 0,
        read: 0,
        readKnown: 0,
      };
      row.citations += d.citations;
      row.answers += d.answers ?? 0;
      row.answersOfPoints += c.answers ?? 0;
      // The stored rate is rounded to 4 decimals; times its denominator it is the count of answers that read it.
      if (typeof d.retrievalRate === 'number' && (c.retrievalKnown ?? 0) > 0) {
        row.read += Math.round(d.retrievalRate * (c.retrievalKnown ?? 0));
        row.readKnown += c.retrievalKnown ?? 0;
      }
      byDomain.set(d.domain, row);
    }
  }
  const rows = [...byDomain.values()].sort((a, b) => b.citations - a.citations || (a.domain < b.domain ? -1 : 1));
  return rows.slice(0, n).map((r) => ({
    domain: r.domain,
    citations: r.citations,
    share: total > 0 ? r.citations / total : 0,
    owner: r.owner,
    citationRate: r.answersOfPoints > 0 ? r.answers / r.answersOfPoints : null,
    retrievalRate: r.readKnown > 0 ? r.read / r.readKnown : null,
  }));
}
