import { round4 } from '../analysis/text/norm.js';

/**
 * The brands and domains a monitor's answers name or cite without the monitor tracking them (docs/analysis.md §6.8),
 * over its runs (`GET /v1/monitors/{id}/discovered`): each run keeps, per engine and country, what its answers named;
 * here the runs are pooled, with each name's share of answers per run as its trend.
 */

interface StoredName {
  name: string;
  key: string;
  variants?: string[];
  answers: number;
  avgPosition: number;
}

interface StoredDomain {
  domain: string;
  citations: number;
  answers: number;
}

interface StoredDiscovered {
  names?: StoredName[];
  domains?: StoredDomain[];
  counts?: { answers?: number; citations?: number };
}

interface RunFigures {
  id: string;
  slotAt: number;
  metrics: Record<string, unknown>;
}

/** How many names and domains the answer lists. */
const LISTED = 20;

interface Tally {
  answers: number;
  positionSum: number;
  engines: Set<string>;
  byRun: Map<string, number>;
}

/**
 * The names and domains over `runs` (oldest first), most answers first; ties by name. A name the monitor tracks now
 * (`isTracked`: promoted since those runs) is left out, as is a domain a tracked brand owns now.
 */
export function discoveredOver(
  runs: readonly RunFigures[],
  isTracked: { name: (name: string) => boolean; domain: (domain: string) => boolean },
) {
  const names = new Map<string, Tally & { name: string; variants: Map<string, number> }>();
  const domains = new Map<string, Tally & { citations: number }>();
  const answersByRun = new Map<string, number>();
  const citationsByRun = new Map<string, number>();
  let answers = 0;
  let citations = 0;
  for (const run of runs)
    for (const [key, figures] of Object.entries(run.metrics)) {
      const d = (figures as { discovered?: StoredDiscovered }).discovered;
      if (!d) continue;
      const engine = key.split('/')[0] ?? '';
      answers += d.counts?.answers ?? 0;
      citations += d.counts?.citations ?? 0;
      answersByRun.set(run.id, (answersByRun.get(run.id) ?? 0) + (d.counts?.answers ?? 0));
      citationsByRun.set(run.id, (citationsByRun.get(run.id) ?? 0) + (d.counts?.citations ?? 0));
      for (const n of d.names ?? []) {
        const t = names.get(n.key) ?? {
          name: n.name,
          variants: new Map<string, number>(),
          answers: 0,
          positionSum: 0,
          engines: new Set<string>(),
          byRun: new Map<string, number>(),
        };
        t.answers += n.answers;
        t.positionSum += n.avgPosition * n.answers;
        t.engines.add(engine);
        t.byRun.set(run.id, (t.byRun.get(run.id) ?? 0) + n.answers);
        t.variants.set(n.name, (t.variants.get(n.name) ?? 0) + n.answers);
        names.set(n.key, t);
      }
      for (const x of d.domains ?? []) {
        const t = domains.get(x.domain) ?? {
          citations: 0,
          answers: 0,
          positionSum: 0,
          engines: new Set<string>(),
          byRun: new Map<string, number>(),
        };
        t.citations += x.citations;
        t.answers += x.answers;
        t.engines.add(engine);
        t.byRun.set(run.id, (t.byRun.get(run.id) ?? 0) + x.citations);
        domains.set(x.domain, t);
      }
    }
  const trend = (byRun: Map<string, number>, totals: Map<string, number>) =>
    runs.map((r) => {
      const total = totals.get(r.id) ?? 0;
      return {
        runId: r.id,
        slotAt: new Date(r.slotAt).toISOString(),
        share: total > 0 ? round4((byRun.get(r.id) ?? 0) / total) : null,
      };
    });
  const byCount = (a: [string, { answers: number }], b: [string, { answers: number }]) =>
    b[1].answers - a[1].answers || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return {
    runs: runs.length,
    answers,
    names: [...names.entries()]
      .filter(([, t]) => ![...t.variants.keys()].some(isTracked.name))
      .sort(byCount)
      .slice(0, LISTED)
      .map(([key, t]) => ({
        // The form written most often over the runs (ties by code-unit order).
        name: [...t.variants.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? t.name,
        key,
        answers: t.answers,
        share: answers > 0 ? round4(t.answers / answers) : 0,
        avgPosition: round4(t.positionSum / t.answers),
        engines: [...t.engines].sort(),
        runsNamed: t.byRun.size,
        trend: trend(t.byRun, answersByRun),
      })),
    domains: [...domains.entries()]
      .filter(([domain]) => !isTracked.domain(domain))
      .sort((a, b) => b[1].citations - a[1].citations || (a[0] < b[0] ? -1 : 1))
      .slice(0, LISTED)
      .map(([domain, t]) => ({
        domain,
        citations: t.citations,
        share: citations > 0 ? round4(t.citations / citations) : 0,
        answers: t.answers,
        engines: [...t.engines].sort(),
        runsCited: t.byRun.size,
        trend: trend(t.byRun, citationsByRun),
      })),
  };
}
