import { csvRecord } from '../text/csv.js';

/**
 * A monitor's figures over time as the API shows them (`GET /v1/monitors/{id}/metrics`): one point per run, engine
 * and country, and the same points as a long CSV (`/metrics.csv`), one row per figure, brand or domain, with its
 * interval, so a spreadsheet or BI tool reads every figure and its uncertainty the same way.
 */

interface Interval {
  low: number;
  high: number;
}

/** A run's stored figures per group, keyed `ENGINE/COUNTRY` (`-` when the engine has no country). */
interface RunFigures {
  id: string;
  slotAt: number;
  metrics: Record<string, unknown>;
}

/** One point of the series: the stored figures of one run, engine and country. */
export type MetricsPoint = {
  runId: string;
  slotAt: string;
  engine: string;
  country: string | null;
  intervals: unknown;
} & Record<string, unknown>;

export function metricsSeries(runs: readonly RunFigures[]): MetricsPoint[] {
  const series: MetricsPoint[] = [];
  for (const run of runs)
    for (const [key, figures] of Object.entries(run.metrics)) {
      const [engine = '', country = '-'] = key.split('/');
      series.push({
        runId: run.id,
        slotAt: new Date(run.slotAt).toISOString(),
        engine,
        country: country === '-' ? null : country,
        // Runs saved before intervals were kept (visibility/1.1.0 and earlier) have none.
        intervals: null,
        ...(figures as Record<string, unknown>),
      });
    }
  return series;
}

/** The CSV's columns, documented in docs/analysis.md §6.6 (one row per figure of a subject). */
export const METRICS_CSV_COLUMNS = [
  'run_id',
  'slot_at',
  'engine',
  'country',
  'figure',
  'subject',
  'role',
  'value',
  'low',
  'high',
  'answers',
  'prompts',
  'method_version',
] as const;

interface BrandFigures {
  name?: string;
  role?: string;
  mentionRate?: number | null;
  shareOfVoice?: number | null;
  avgFirstMentionPosition?: number | null;
  citationShare?: number | null;
  intervals?: Partial<Record<'mentionRate' | 'shareOfVoice' | 'avgFirstMentionPosition' | 'citationShare', Interval>>;
}

interface DomainFigures {
  domain?: string;
  share?: number;
  shareInterval?: Interval | null;
  citationRate?: number | null;
  citationRateInterval?: Interval | null;
  retrievalRate?: number | null;
  retrievalRateInterval?: Interval | null;
}

const BRAND_FIGURES = [
  ['mention_rate', 'mentionRate'],
  ['share_of_voice', 'shareOfVoice'],
  ['avg_first_mention_position', 'avgFirstMentionPosition'],
  ['citation_share', 'citationShare'],
] as const;

/** The series as CSV records: a header, then every brand's four figures and every listed domain's share, per point. */
export function* metricsCsv(series: readonly MetricsPoint[]): Generator<string> {
  yield csvRecord(METRICS_CSV_COLUMNS);
  for (const p of series) {
    const out: string[] = [];
    const counts = (p.counts ?? {}) as { answers?: number; prompts?: number };
    const row = (
      figure: string,
      subject: string,
      role: string,
      value: unknown,
      interval: Interval | null | undefined,
    ) =>
      csvRecord([
        p.runId,
        p.slotAt,
        p.engine,
        p.country ?? '',
        figure,
        subject,
        role,
        cell(value),
        cell(interval?.low),
        cell(interval?.high),
        cell(counts.answers),
        cell(counts.prompts),
        String(p.methodVersion ?? ''),
      ]);
    for (const b of (p.brands ?? []) as BrandFigures[])
      for (const [figure, key] of BRAND_FIGURES)
        out.push(row(figure, b.name ?? '', b.role ?? '', b[key], b.intervals?.[key]));
    for (const d of (p.topCitedDomains ?? []) as DomainFigures[]) {
      out.push(row('domain_citation_share', d.domain ?? '', 'domain', d.share, d.shareInterval));
      if (d.citationRate !== undefined)
        out.push(row('domain_citation_rate', d.domain ?? '', 'domain', d.citationRate, d.citationRateInterval));
    }
    // Runs saved before visibility/1.3.0 have none of these figures: no row rather than an empty one.
    for (const d of (p.topRetrievedDomains ?? []) as DomainFigures[])
      out.push(row('domain_retrieval_rate', d.domain ?? '', 'domain', d.retrievalRate, d.retrievalRateInterval));
    if (p.searchRate !== undefined) {
      const intervals = p.intervals as { searchRate?: Interval | null } | null;
      out.push(row('search_rate', '', 'engine', p.searchRate, intervals?.searchRate));
    }
    yield out.join('');
  }
}

/** A number as it is, or an empty cell for a figure that has no value. */
function cell(v: unknown): string | number {
  return typeof v === 'number' && Number.isFinite(v) ? v : '';
}
