import { antonyms, canonicalPhrases, negationCues, type LexLang } from '../../text/lexicon/index.js';
import { matchWords, type MatchWord } from '../../text/match-tokens.js';
import { memoByText } from '../../text/memo.js';
import type { Language } from '../../text/norm.js';
import { stripParticle } from '../../text/tokens.js';

/**
 * The contradiction rule of the lexical judge (docs/analysis.md#judging-support). It reads the page's sentence that
 * shares most with the claim, and the clause of it that shares most. A claim that reuses those words but
 *
 * - flips the clause's polarity (a negation on one side only: not, never, rarely, 안, 못, -지 않다, 없다, 아니다),
 * - swaps a word for its antonym (more/less, 증가/감소) — a negated antonym on the same side cancels out,
 * - states another number of the same kind (a year, a count of 명, a sum in 만원) where the sentence has one, or
 * - puts another name in the same place of an otherwise identical statement (Roger II / Bohemond I, 대구 / 부산)
 *
 * contradicts the page. Reusing the page's words is what makes such a claim look supported to overlap measures, so
 * the caller applies the rule only when the claim's overlap with the sentence is high.
 *
 * The rule reads the same claim and the same page sentences once per (claim, source) pair, so what it derives from a
 * text (words, parity, numbers, clauses) is remembered by text.
 */
const memo = <T>(fn: (text: string) => T) => memoByText(fn, 20_000);

const contentWords = memo((t) => matchWords(t));
const allWords = memo((t) => matchWords(t, true));
const allIds = memo((t) => new Set(allWords(t).map((w) => w.id)));
const contentIds = memo((t) => new Set(contentWords(t).map((w) => w.id)));

export type ContradictionReason = 'negation' | 'antonym' | 'number' | 'date' | 'name';

export interface Contradiction {
  reason: ContradictionReason;
  /** The claim's and the page's differing pieces, for the reader ("increase" / "decrease", "1998" / "1994"). */
  claim: string;
  page: string;
}

// A break starts where its whitespace run starts (the lookbehind), so a long run is scanned once.
const CLAUSE_BREAK_EN = /[;:,]\s+|(?<!\s)\s+(?:but|although|though|whereas|while|however|and|which|who)\s+/i;
// The connective stays on its clause (최고 기록 must not lose 고): the break is the space after it.
const CLAUSE_BREAK_KO = /[;:,]\s*|(?<=지만|는데|으나|면서|반면|며|고)\s+/;

const clausesKo = memo((t) => splitClauses(t, CLAUSE_BREAK_KO));
const clausesEn = memo((t) => splitClauses(t, CLAUSE_BREAK_EN));

function splitClauses(sentence: string, pattern: RegExp): string[] {
  return sentence
    .split(pattern)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function clausesOf(sentence: string, lang: Language): string[] {
  return lang === 'ko' ? clausesKo(sentence) : clausesEn(sentence);
}

const lexLang = (lang: Language): LexLang => (lang === 'ko' ? 'ko' : 'en');
/** Lemmas that are negation cues themselves: an antonym pair with one of them is the negation, counted once. */
const NEGATION_WORDS = new Set(['없', '아니', '않', '못', '안', 'not', 'no', 'never', 'none']);
/** Adverbs that deny the usual case: "rarely travels alone" denies "often travels alone". */
const QUASI_NEGATIONS = /\b(?:rarely|seldom|hardly|barely|scarcely)\b/gi;

/**
 * Parity of the syntactic negations of a text, after the phrase rewrite (세금이 붙지 않는 → 비과세: lexical negatives
 * are words, compared as words).
 */
function negationParity(raw: string, lang: Language): number {
  return lang === 'ko' ? parityKo(raw) : parityEn(raw);
}

function parity(raw: string, lang: LexLang): number {
  const text = canonicalPhrases(raw, lang);
  const syntactic = negationCues(text, lang).filter((c) => c.kind === 'syntactic').length;
  return (syntactic + (text.match(QUASI_NEGATIONS)?.length ?? 0)) % 2;
}
const parityKo = memo((t) => parity(t, 'ko'));
const parityEn = memo((t) => parity(t, 'en'));

/** An antonym of a claim word on the page side, when the page lacks the claim's own word (stopwords included). */
function antonymSwap(claim: string, page: string, lang: Language): [string, string] | null {
  const c = allIds(claim);
  const p = allIds(page);
  for (const id of c) {
    if (p.has(id)) continue;
    for (const a of antonyms(id, lexLang(lang))) if (p.has(a) && !c.has(a)) return [id, a];
  }
  return null;
}

interface NumberMention {
  value: number;
  kind: string;
  text: string;
}

/** Units after a number; longest first, and a Latin unit must end its word ("5 months" is not "5 m"). */
const UNITS_KO = '년 월 일 시 분 % 퍼센트 명 인 개 곳 원 달러 위 번째 차'.split(' ');
const UNITS_EN = 'per cent|percent|million|billion|thousand|years?|months?|days?|people|dollars?|times|km|kg|cm|mm|m';
const UNIT_AFTER = new RegExp(
  `^\\s*(${UNITS_KO.sort((a, b) => b.length - a.length).join('|')}|(?:${UNITS_EN})(?![\\p{L}]))`,
  'iu',
);
const KO_MULTIPLIER: Readonly<Record<string, number>> = { 천: 1e3, 만: 1e4, 억: 1e8, 조: 1e12 };
const MONTHS_EN = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DATE_KINDS = new Set(['year', '년', '월', '일', 'month', 'day']);

/**
 * Numbers with the kind of quantity they count (a unit after them, a four-digit year, or plain); Korean multipliers
 * are applied (20만 명 = 200,000 people, 5천만원 = 50,000,000 won) so 20만 and 2만 differ.
 */
const numberMentions = memo(readNumbers);

function readNumbers(text: string): NumberMention[] {
  const out: NumberMention[] = [];
  for (const m of text.matchAll(/\d+(?:[.,]\d+)*/g)) {
    const raw = m[0];
    let value = Number(/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(raw) ? raw.replace(/,/g, '') : raw.replace(/,/g, '.'));
    // "1,2,3", "3.5.1" and 2024.11.25 are lists, versions and dates, not one quantity.
    if (!Number.isFinite(value)) continue;
    let rest = text.slice((m.index ?? 0) + raw.length);
    for (let mult = /^\s*([천만억조])/.exec(rest); mult; mult = /^([천만억조])/.exec(rest)) {
      value *= KO_MULTIPLIER[mult[1] as string] ?? 1;
      rest = rest.slice(mult[0].length);
    }
    const unit = UNIT_AFTER.exec(rest)?.[1]?.toLowerCase().replace(/s$/, '');
    const year = Number.isInteger(value) && value >= 1000 && value <= 2100 && raw.length === 4;
    const kind = unit === 'year' || (unit === undefined && year) ? 'year' : (unit ?? 'plain');
    out.push({ value, kind: kind === '년' && year ? 'year' : kind, text: raw });
  }
  return out;
}

function numberChange(claim: string, sentence: string): Contradiction | null {
  const onPage = numberMentions(sentence);
  for (const c of numberMentions(claim)) {
    // The same value counts as stated only for the same kind of quantity (5 months is not 5 million).
    if (onPage.some((p) => p.value === c.value && (p.kind === c.kind || p.kind === 'plain' || c.kind === 'plain')))
      continue;
    const other = onPage.find((p) => p.kind === c.kind && p.value !== c.value);
    if (other) return { reason: DATE_KINDS.has(c.kind) ? 'date' : 'number', claim: c.text, page: other.text };
  }
  const months = (t: string) => MONTHS_EN.filter((mo) => new RegExp(`\\b${mo}\\b`, 'i').test(t));
  const cm = months(claim);
  const pm = months(sentence);
  const missing = cm.find((mo) => !pm.includes(mo));
  const instead = pm.find((mo) => !cm.includes(mo));
  if (missing && instead) return { reason: 'date', claim: missing, page: instead };
  return null;
}

/** A name-like word: capitalised in English (not the text's first word), a noun without an ending in Korean. */
function nameLike(w: MatchWord, text: string): boolean {
  if (w.lang === 'en') return /^\p{Lu}/u.test(w.surface) && !text.trimStart().startsWith(w.surface);
  return w.id === stripParticle(w.surface.replace(/[^\p{Script=Hangul}]/gu, ''));
}

/**
 * A name-like claim word missing from the sentence, with the sentence holding another name-like word in the same
 * place (the same word before or after it), while most of the claim's other words are in the sentence (`minRest`).
 * Korean words also count as present when written inside a longer word of the sentence (재판관 in 재판관중에서).
 */
function nameChange(claim: string, sentence: string, minRest: number): Contradiction | null {
  const cw = contentWords(claim);
  const sw = contentWords(sentence);
  if (cw.length < 3) return null;
  const sIds = contentIds(sentence);
  const compact = sentence.replace(/\s+/g, '');
  // Without a dictionary a Korean ending can stay on a stem (이내인 / 이내): a shared start of two syllables or more
  // is the same word.
  const same = (a: MatchWord, b: MatchWord) =>
    a.id === b.id ||
    (a.lang === 'ko' &&
      b.lang === 'ko' &&
      Math.min(a.id.length, b.id.length) >= 2 &&
      (a.id.startsWith(b.id) || b.id.startsWith(a.id)));
  const present = (w: MatchWord) =>
    sIds.has(w.id) || (w.lang === 'ko' && w.id.length >= 2 && compact.includes(w.id)) || sw.some((x) => same(w, x));
  const missing = cw.map((w, i) => ({ w, i })).filter(({ w }) => !present(w));
  if (missing.length === 0 || (cw.length - missing.length) / cw.length < minRest) return null;
  for (const { w, i } of missing) {
    if (!nameLike(w, claim)) continue;
    const before = cw[i - 1]?.id;
    const after = cw[i + 1]?.id;
    for (let k = 0; k < sw.length; k++) {
      const cand = sw[k] as MatchWord;
      if (cw.some((c) => same(c, cand)) || !nameLike(cand, sentence)) continue;
      if ((before !== undefined && sw[k - 1]?.id === before) || (after !== undefined && sw[k + 1]?.id === after))
        return { reason: 'name', claim: w.surface, page: cand.surface };
    }
  }
  return null;
}

/**
 * A specific fact of the claim that its evidence does not state: a number, or a name-like word, found nowhere in the
 * evidence window. Such a claim says more than the page, so it is at most partial.
 */
export function missingSpecific(claim: string, evidence: string): boolean {
  const values = new Set(numberMentions(evidence).map((n) => n.value));
  if (numberMentions(claim).some((n) => !values.has(n.value))) return true;
  const ids = contentIds(evidence);
  const compact = evidence.replace(/\s+/g, '').toLowerCase();
  return contentWords(claim).some(
    (w) => w.lang === 'en' && nameLike(w, claim) && !ids.has(w.id) && !compact.includes(w.id),
  );
}

/** Share of a clause's content words found in another clause. */
function clauseOverlap(a: string, b: string): number {
  const aw = contentWords(a);
  if (aw.length === 0) return 0;
  const bw = contentIds(b);
  return aw.filter((w) => bw.has(w.id)).length / aw.length;
}

/**
 * A negation on one side only, clause against clause: each clause of the claim is paired with the sentence's clause
 * that shares most of its words, and only a pair sharing `minOverlap` of the claim clause's words counts (a claim
 * that says "never fell behind" where the page says "never trailed" is not compared with another clause).
 */
function polarityFlip(claim: string, sentence: string, lang: Language, minOverlap: number): [string, string] | null {
  const pageClauses = clausesOf(sentence, lang);
  for (const cc of clausesOf(claim, lang)) {
    if (contentWords(cc).length < 2) continue;
    let best = '';
    let bestOverlap = -1;
    for (const pc of pageClauses) {
      const o = clauseOverlap(cc, pc);
      if (o > bestOverlap) {
        bestOverlap = o;
        best = pc;
      }
    }
    if (bestOverlap < minOverlap) continue;
    if (negationParity(cc, lang) === negationParity(best, lang)) continue;
    // A negated antonym says the same thing (not decrease = increase), unless the antonym is the negation itself
    // (없다 is both the cue and the antonym of 있다).
    const swap = antonymSwap(cc, best, lang);
    if (!swap || swap.some((w) => NEGATION_WORDS.has(w))) return [cc, best];
  }
  return null;
}

export interface ContradictionInput {
  claim: string;
  /** The page's sentence that shares most with the claim. */
  sentence: string;
  language: Language;
  /** Share of the claim's other words a name change needs in the sentence. */
  minRest: number;
  /** Share of a claim clause's words its page clause must hold for a negation on one side to count. */
  negationMinOverlap: number;
}

export function findContradiction(x: ContradictionInput): Contradiction | null {
  const lang = x.language;
  const flip = polarityFlip(x.claim, x.sentence, lang, x.negationMinOverlap);
  if (flip) return { reason: 'negation', claim: flip[0], page: flip[1] };
  const swap = antonymSwap(x.claim, x.sentence, lang);
  // A negated antonym says the same thing (not more = less): the swap counts only when the polarity agrees.
  if (swap && negationParity(x.claim, lang) === negationParity(x.sentence, lang))
    return { reason: 'antonym', claim: swap[0], page: swap[1] };
  return numberChange(x.claim, x.sentence) ?? nameChange(x.claim, x.sentence, x.minRest);
}
