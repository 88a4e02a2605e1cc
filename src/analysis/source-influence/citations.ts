import { hostnameOf, normalizeCitationUrl, registrableDomain } from '../common/urls.js';
import type { AnswerUnit } from './units.js';

/** Maps markers and links of every unit to sources (§2.5 "Number → citation"). */

export interface CitationMapping {
  /** Per unit: canonical source index of every valid citation occurrence (markers expanded, links). */
  occurrences: number[][];
  /** Per unit: C_u, the distinct valid sources it cites. */
  cited: Array<Set<number>>;
  invalidMarkers: Array<{ marker: string; unitIndex: number }>;
  unmatchedLinks: Array<{ url: string; unitIndex: number }>;
  /** Citation occurrences in the answer: marker numbers after expansion plus links. */
  markerCount: number;
}

export interface CitationTarget {
  normalizedUrl: string;
  position: number | undefined;
  /** Index of the first citation with the same normalised URL (itself when not a duplicate). */
  canonical: number;
}

function numberResolver(
  targets: readonly CitationTarget[],
  units: readonly AnswerUnit[],
  references: ReadonlyMap<number, string>,
): (n: number) => number | null {
  const positions = targets.map((t) => t.position);
  const distinct = positions.every((p) => Number.isInteger(p)) && new Set(positions).size === positions.length;
  if (distinct && targets.length > 0) {
    const byPos = new Map(targets.map((t, i) => [t.position as number, i]));
    return (n) => byPos.get(n) ?? null;
  }
  const byUrl = new Map<string, number>();
  targets.forEach((t, i) => {
    if (!byUrl.has(t.normalizedUrl)) byUrl.set(t.normalizedUrl, i);
  });
  const all = units.flatMap((u) => u.markers.flatMap((m) => m.numbers));
  const zeroBased = all.length > 0 && Math.min(...all) === 0 && Math.max(...all) === targets.length - 1;
  return (n) => {
    const ref = references.get(n);
    if (ref !== undefined) return byUrl.get(normalizeCitationUrl(ref)) ?? null;
    const i = zeroBased ? n : n - 1;
    return i >= 0 && i < targets.length ? i : null;
  };
}

function linkResolver(targets: readonly CitationTarget[]): (url: string) => number | null {
  const byUrl = new Map<string, number>();
  const byDomain = new Map<string, Set<number>>();
  for (const t of targets) {
    if (!byUrl.has(t.normalizedUrl)) byUrl.set(t.normalizedUrl, t.canonical);
    const d = registrableDomain(hostnameOf(t.normalizedUrl));
    const set = byDomain.get(d) ?? new Set<number>();
    set.add(t.canonical);
    byDomain.set(d, set);
  }
  return (url) => {
    const exact = byUrl.get(normalizeCitationUrl(url));
    if (exact !== undefined) return exact;
    const same = byDomain.get(registrableDomain(hostnameOf(url)));
    return same && same.size === 1 ? ([...same][0] as number) : null;
  };
}

export function mapCitations(
  targets: readonly CitationTarget[],
  units: readonly AnswerUnit[],
  references: ReadonlyMap<number, string>,
): CitationMapping {
  const resolveNumber = numberResolver(targets, units, references);
  const resolveLink = linkResolver(targets);
  const out: CitationMapping = { occurrences: [], cited: [], invalidMarkers: [], unmatchedLinks: [], markerCount: 0 };
  for (const u of units) {
    const occ: number[] = [];
    for (const m of u.markers) {
      for (const n of m.numbers) {
        out.markerCount++;
        const i = resolveNumber(n);
        const t = i === null ? undefined : targets[i];
        if (t) occ.push(t.canonical);
        else out.invalidMarkers.push({ marker: m.numbers.length === 1 ? m.raw : `[${n}]`, unitIndex: u.index });
      }
    }
    for (const l of u.links) {
      out.markerCount++;
      const j = resolveLink(l.url);
      if (j === null) out.unmatchedLinks.push({ url: l.url, unitIndex: u.index });
      else occ.push(j);
    }
    out.occurrences.push(occ);
    out.cited.push(new Set(occ));
  }
  return out;
}
