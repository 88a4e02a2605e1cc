import type { SimContext } from '../sim-context.js';
import { brandKey, type Market, type MarketBrand, marketOf } from './markets.js';
import type { VisibilityShift } from './shifts.js';

/**
 * Which brands a simulated engine recommends for a prompt, so that engines, countries and days differ as real ones
 * do. Each brand's chance of being named is drawn from seeds, never from a table of outcomes:
 * - a standing affinity of the engine for the brand (the largest part: engines differ for good);
 * - a regional part per country and engine;
 * - a small wobble per day (a trend line moves, but slowly);
 * - any `sandbox:shift` in force that day;
 * and each ask (a sample: the n-th ask of the same prompt on the same engine, country and day) draws whether the brand
 * is named against that chance, so repeated asks disagree as a real engine's do. Brands named are ordered by their
 * chance with some noise (the position a monitor reads). The same slot always gives the same answer.
 */
interface AskSlot {
  /** The task type the route serves (CHATBOT_A, AIMODE, …): the seed of the engine's own preferences. */
  engine: string;
  /** Upper-case ISO country the request came for. */
  country: string;
  /** `YYYY-MM-DD` (UTC) of the simulator's clock. */
  day: string;
  /** 0 for the first ask of this prompt on this engine, country and day, then 1, 2, … */
  sample: number;
}

interface Recommended {
  brand: MarketBrand;
  /** 1-based place in the answer's list. */
  position: number;
}

/** At most this many brands are named in one answer. */
const MAX_NAMED = 4;

function recommendBrands(
  sim: SimContext,
  market: Market,
  slot: AskSlot,
  topic: string,
  shifts: readonly VisibilityShift[],
): Recommended[] {
  const unit = (...parts: string[]) => sim.hash(parts.join('\u0001'), 'landscape') / 2 ** 32;
  const named: Array<{ brand: MarketBrand; score: number }> = [];
  for (const brand of market.brands) {
    const key = brandKey(brand.name);
    const affinity = 0.08 + 0.8 * unit('affinity', slot.engine, market.id, key);
    const regional = 0.3 * (unit('region', slot.country, slot.engine, key) - 0.5);
    const wobble = 0.1 * (unit('day', slot.day, slot.engine, key) - 0.5);
    const shifted = shifts
      .filter((s) => s.brand === key && s.from <= slot.day && (s.engine === null || s.engine === slot.engine))
      .reduce((sum, s) => sum + s.points / 100, 0);
    const chance = Math.min(0.98, Math.max(0.02, affinity + regional + wobble + shifted));
    const ask = [slot.engine, slot.country, slot.day, String(slot.sample), topic, key];
    if (unit('named', ...ask) >= chance) continue;
    named.push({ brand, score: chance + 0.3 * (unit('order', ...ask) - 0.5) });
  }
  return named
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_NAMED)
    .map((n, i) => ({ brand: n.brand, position: i + 1 }));
}

export interface Landscape {
  /** The sentence naming the recommended brands, in the answer's language; null when none is named. */
  sentence: string | null;
  /** The first-named brand's own site, when this answer cites it (in place of its last source: withOwnSite). */
  ownSite: { url: string; title: string; host: string } | null;
}

/**
 * An answer's sources with the brand's own site, when it cites one, in place of the last: the number of sources and
 * where each is cited stay as each route's wire form has them, only which site changes.
 */
export function withOwnSite<T extends { url: string; title: string }>(cites: T[], brands: Landscape | null): T[] {
  const own = brands?.ownSite;
  if (!own || cites.length === 0) return cites;
  return cites.map((c, i) =>
    i === cites.length - 1 ? { ...c, url: own.url, title: own.title, ...('host' in c ? { host: own.host } : {}) } : c,
  );
}

const EN_LEADS = ['Popular picks include', 'Reviewers most often recommend', 'Many buyers shortlist'];

/**
 * What an engine says about the brands of the prompt's market (see recommendBrands); an empty landscape for a prompt
 * of no market, so such answers read exactly as they did.
 */
export function landscapeOf(
  sim: SimContext,
  o: { engine: string; country: string; topic: string; korean: boolean; shifts: readonly VisibilityShift[] },
): Landscape {
  const market = marketOf(o.topic);
  if (!market) return { sentence: null, ownSite: null };
  const day = sim.today();
  const sample = sim.sampleOf(`${o.engine}\u0000${o.country}\u0000${day}\u0000${o.topic}`);
  const slot: AskSlot = { engine: o.engine, country: o.country, day, sample };
  const recommended = recommendBrands(sim, market, slot, o.topic, o.shifts);
  if (recommended.length === 0) return { sentence: null, ownSite: null };
  const names = recommended.map((r) => (o.korean ? (r.brand.ko ?? r.brand.name) : r.brand.name));
  const sentence = o.korean
    ? `많이 추천되는 브랜드로는 ${names.join(', ')} 등이 있습니다.`
    : `${EN_LEADS[sim.hash(o.engine, 'lead') % EN_LEADS.length]} ${listOf(names)}.`;
  // Some engines link the brand they name first to its own site, some rarely: a citation rate that differs.
  const first = recommended[0]?.brand;
  const cites = sim.hash(`${o.engine}\u0000${o.country}\u0000${day}\u0000${sample}\u0000${o.topic}`, 'own') / 2 ** 32;
  const citeRate = 0.15 + 0.6 * (sim.hash(o.engine, 'own-rate') / 2 ** 32);
  const ownSite =
    first && cites < citeRate
      ? { url: `https://www.${first.domain}/`, title: `${first.name} — official site`, host: first.domain }
      : null;
  return { sentence, ownSite };
}

function listOf(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
