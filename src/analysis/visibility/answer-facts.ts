import type { MentionSpan } from '../../domain/monitor.js';
import { round4 } from '../text/norm.js';
import { type Mention, mentionFinder } from './brand-mentions.js';
import { citedSources } from './cited-domains.js';
import type { Answer, CompetitorBrand, MonitoredBrand } from './types.js';

/** What one answer says about each tracked brand and which domains it cites (§6.2). */
export interface AnswerFacts {
  /** False when the text holds no letter or digit: such an answer is left out of every figure (§6.3). */
  hasText: boolean;
  /** Length of the text in UTF-16 code units, the scale of `relativeOffset`. */
  length: number;
  /** The monitored brand is mentioned (name or alias). */
  mentioned: boolean;
  /** The monitored brand's first mention, or null. */
  firstMention: FirstMention | null;
  /** The monitored brand first, then the competitors in the order given. */
  brands: BrandInAnswer[];
  /** The distinct cited sources, in the order cited. */
  citations: AnswerCitation[];
  /** Sources whose URL has no host; not citations. */
  invalidCitations: number;
  /** Whether the engine searched the web for this answer; null when it cannot tell (§6.9). */
  searched: boolean | null;
  /**
   * The registrable domains the engine read to write this answer, cited or not (each once); null when the engine does
   * not say what it read beyond what it cited (§6.9).
   */
  retrievedDomains: ReadDomain[] | null;
}

/** A registrable domain an answer drew on, and the tracked brand owning it (as for a citation), or null. */
interface ReadDomain {
  domain: string;
  owner: string | null;
}

interface FirstMention {
  /** 1-based rank among the tracked brands this answer mentions, ordered by where each is first mentioned. */
  position: number;
  /** Offset of the first mention in the text. */
  offset: number;
  /** `offset / length`, 4 decimals: 0 at the very start, towards 1 at the end. */
  relativeOffset: number;
}

interface BrandInAnswer {
  name: string;
  role: 'brand' | 'competitor';
  /** The occurrences credited to this brand, in text order (for highlighting). */
  mentions: Mention[];
  /** `mentions.length`. */
  count: number;
  /** 1-based rank by first mention among the tracked brands mentioned, or null when not mentioned. */
  position: number | null;
}

interface AnswerCitation {
  url: string;
  host: string;
  /** Registrable domain (eTLD+1). */
  domain: string;
  /** The host is one of the monitored brand's domains or a subdomain of one. */
  own: boolean;
  /** Name of the tracked brand whose domains hold the host (the monitored brand wins a tie), or null. */
  owner: string | null;
}

/** A tracked brand ready to match: its name, role, mention finder and own domains. */
interface TrackedBrand {
  name: string;
  role: 'brand' | 'competitor';
  find: (text: string) => Mention[];
  domains?: readonly string[] | undefined;
}

/** The tracked brands with their finders built once, for many answers. */
export type TrackedBrands = readonly TrackedBrand[];

export function trackBrands(brand: MonitoredBrand, competitors: readonly CompetitorBrand[] = []): TrackedBrands {
  const one = (b: MonitoredBrand | CompetitorBrand, role: TrackedBrand['role']): TrackedBrand => ({
    name: b.name,
    role,
    find: mentionFinder([b.name, ...b.aliases]),
    domains: b.domains,
  });
  return [one(brand, 'brand'), ...competitors.map((c) => one(c, 'competitor'))];
}

/** The facts of one answer for a brand and its competitors. */
export function answerFacts(
  answer: Answer,
  brand: MonitoredBrand,
  competitors: readonly CompetitorBrand[] = [],
): AnswerFacts {
  return factsFor(answer, trackBrands(brand, competitors));
}

/** As `answerFacts`, with the brands prepared once by `trackBrands`. */
export function factsFor(answer: Answer, tracked: TrackedBrands): AnswerFacts {
  const text = answer.text;
  const hasText = /[\p{L}\p{N}]/u.test(text);
  const credited = creditMentions(tracked.map((t) => (hasText ? t.find(text) : [])));
  const order = credited
    .map((ms, i) => ({ i, first: ms[0]?.start }))
    .filter((x): x is { i: number; first: number } => x.first !== undefined)
    .sort((a, b) => a.first - b.first || a.i - b.i);
  const positionOf = new Map(order.map((x, k) => [x.i, k + 1]));
  const brands = tracked.map(
    (t, i): BrandInAnswer => ({
      name: t.name,
      role: t.role,
      mentions: credited[i] ?? [],
      count: credited[i]?.length ?? 0,
      position: positionOf.get(i) ?? null,
    }),
  );
  const own = brands[0];
  const first = own?.mentions[0];
  const cited = citedSources(answer.sources, tracked);
  return {
    hasText,
    length: text.length,
    mentioned: (own?.count ?? 0) > 0,
    firstMention:
      first && own?.position
        ? { position: own.position, offset: first.start, relativeOffset: round4(first.start / text.length) }
        : null,
    brands,
    citations: cited.sources.map((s) => ({
      url: s.url,
      host: s.host,
      domain: s.domain,
      own: s.ownerIndex === 0,
      owner: s.ownerIndex === null ? null : (tracked[s.ownerIndex]?.name ?? null),
    })),
    invalidCitations: cited.invalid,
    searched: typeof answer.searchTriggered === 'boolean' ? answer.searchTriggered : null,
    retrievedDomains: readDomains(answer, cited.sources, tracked),
  };
}

/**
 * The domains an answer drew on: the cited ones and the ones the engine read but did not cite. Null when the engine
 * does not list what it read: its cited domains alone would make every retrieval rate a citation rate.
 */
function readDomains(
  answer: Answer,
  cited: readonly { domain: string; ownerIndex: number | null }[],
  tracked: TrackedBrands,
): ReadDomain[] | null {
  if (!answer.retrievedSources) return null;
  const read = new Map<string, ReadDomain>();
  for (const s of [...cited, ...citedSources(answer.retrievedSources, tracked).sources]) {
    const owner = s.ownerIndex === null ? null : (tracked[s.ownerIndex]?.name ?? null);
    const known = read.get(s.domain);
    if (!known) read.set(s.domain, { domain: s.domain, owner });
    else known.owner ??= owner;
  }
  return [...read.values()];
}

/**
 * One stretch of text is one brand's mention. When names of two tracked brands overlap ("Samsung" inside "Samsung
 * Electronics", with both tracked), the longer match takes it, and on equal spans the earlier brand in the list
 * (the monitored brand first); matches that only partly overlap both stay.
 */
function creditMentions(found: readonly Mention[][]): Mention[][] {
  return found.map((ms, i) =>
    ms.filter(
      (m) =>
        !found.some(
          (other, j) =>
            j !== i &&
            other.some((o) => {
              if (o.start > m.start || o.end < m.end) return false;
              const longer = o.end - o.start > m.end - m.start;
              return longer || j < i;
            }),
        ),
    ),
  );
}

/**
 * Where an answer names the tracked brands, as a run saves it for readers (§6.1): each credited occurrence in text
 * order with its brand and role, and the monitored brand's rank by first mention (null when not named).
 */
export function savedMentions(facts: AnswerFacts): { mentions: MentionSpan[]; position: number | null } {
  const mentions = facts.brands
    .flatMap((b) => b.mentions.map((m) => ({ start: m.start, end: m.end, brand: b.name, role: b.role })))
    .sort((a, b) => a.start - b.start);
  return { mentions, position: facts.brands[0]?.position ?? null };
}
