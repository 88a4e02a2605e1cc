import { memoByText } from '../memo.js';
import { stemEnglish } from '../stemmer.js';
import { EN_ANTONYMS, EN_IRREGULAR, EN_SYNONYMS } from './english-tables.js';
import { hasHangul } from './hangul.js';
import { KO_ANTONYMS, KO_SYNONYMS } from './korean-tables.js';
import { lemmaKorean } from './korean-stemmer.js';
import { negationCuesEnglish, negationCuesKorean } from './negation.js';
import { rewritePhrases } from './phrases.js';

/**
 * Lexical knowledge for claim-versus-page judging without a model: lemmas, synonym groups, antonyms, multi-word
 * paraphrases and negation cues, for English and Korean. The script of a word decides how it is treated (a Latin
 * word in a Korean page is English), so `lang` only matters for script-neutral input. Tables are built once at load.
 */

export type LexLang = 'en' | 'ko';

// The trailing run is matched only from its first character (the lookbehind): one scan, not one per position.
const EDGE = /^[^\p{L}\p{N}]+|(?<![^\p{L}\p{N}])[^\p{L}\p{N}]+$/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function isWordChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code > 0x7f && LETTER_OR_DIGIT.test(String.fromCharCode(code)))
  );
}

function lemmaEnglish(w: string): string {
  const base = w.endsWith("'s") ? w.slice(0, -2) : w;
  const irregular = Object.hasOwn(EN_IRREGULAR, base) ? EN_IRREGULAR[base] : undefined;
  return stemEnglish(irregular ?? base) || base;
}

function computeLemma(word: string): string {
  let w = word.toLowerCase();
  if (!isWordChar(w.charCodeAt(0)) || !isWordChar(w.charCodeAt(w.length - 1))) w = w.replace(EDGE, '');
  w = w.replace(/’/g, "'");
  if (w === '') return word.toLowerCase();
  const out = hasHangul(w) ? lemmaKorean(w) : /[a-z]/.test(w) ? lemmaEnglish(w) : w;
  return out === '' ? w : out;
}

/**
 * Lemma of one word token: lower-cased; English irregular forms to their base (won → win), then Porter2; Korean
 * particles and verb/adjective/copula endings stripped (korean-stemmer.ts). Never returns '' (the empty string and
 * punctuation-only tokens come back as themselves, '' as '_').
 */
export function lemma(word: string, _lang: LexLang): string {
  return word === '' ? '_' : cachedLemma(word);
}
const cachedLemma = memoByText(computeLemma, 100_000);

interface Tables {
  synonyms: Map<string, string>;
  antonyms: Map<string, Set<string>>;
  /** Lemmas claimed by two groups (the first group keeps them); reported by lexiconConflicts() for the tests. */
  conflicts: string[];
}

function lines(table: string): string[][] {
  return table
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((l) => l.length > 0 && l[0] !== '');
}

function buildTables(synonyms: string, antonyms: string, lang: LexLang): Tables {
  const syn = new Map<string, string>();
  const conflicts: string[] = [];
  const claim = (key: string, id: string, member: string): void => {
    const had = syn.get(key);
    if (had === undefined) syn.set(key, id);
    else if (had !== id) conflicts.push(`${member} (${key}): ${had} / ${id}`);
  };
  for (const group of lines(synonyms)) {
    const first = group[0] ?? '';
    const id = lang === 'ko' ? first : lemma(first, lang);
    for (const m of group) {
      if (lang === 'ko') claim(m, id, m);
      const l = lemma(m, lang);
      if (l !== m || lang === 'en') claim(l, id, m);
    }
  }
  const canon = (w: string): string => {
    const l = lang === 'ko' && syn.has(w) ? w : lemma(w, lang);
    return syn.get(w) ?? syn.get(l) ?? l;
  };
  const ant = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    const s = ant.get(a) ?? new Set<string>();
    s.add(b);
    ant.set(a, s);
  };
  for (const pair of lines(antonyms)) {
    const [a, b] = pair;
    if (a === undefined || b === undefined) continue;
    const ca = canon(a);
    const cb = canon(b);
    if (ca === cb) {
      conflicts.push(`antonyms ${a}/${b} share the id ${ca}`);
      continue;
    }
    link(ca, cb);
    link(cb, ca);
  }
  return { synonyms: syn, antonyms: ant, conflicts };
}

/**
 * Each language's tables, built on first use: building them lemmatises every word of the lists (some 35 ms), which
 * every process paid at its start, the worker processes after a crash included, whether it ever analysed a text.
 */
let ko: Tables | undefined;
let en: Tables | undefined;
const KO = (): Tables => (ko ??= buildTables(KO_SYNONYMS, KO_ANTONYMS, 'ko'));
const EN = (): Tables => (en ??= buildTables(EN_SYNONYMS, EN_ANTONYMS, 'en'));
const EMPTY: ReadonlySet<string> = new Set();

function tablesFor(id: string): Tables {
  return hasHangul(id) ? KO() : EN();
}

/** Canonical id of a lemma's synonym group (the lemma itself when it has none). */
export function canonical(lemmaId: string, _lang: LexLang): string {
  return tablesFor(lemmaId).synonyms.get(lemmaId) ?? lemmaId;
}

/** Canonical ids that are antonyms of a canonical id (empty when none). */
export function antonyms(canonicalId: string, _lang: LexLang): ReadonlySet<string> {
  return tablesFor(canonicalId).antonyms.get(canonicalId) ?? EMPTY;
}

/** Rewrites multi-word paraphrases to one canonical word, keeping the rest of the text intact (phrases.ts). */
export function canonicalPhrases(text: string, lang: LexLang): string {
  return rewritePhrases(text, lang);
}

/**
 * Negation cues of a clause with the index of the word they negate (0-based, clause split on whitespace); see
 * negation.ts for where the index points for each kind of cue. Korean cues are looked for when the clause has
 * Hangul, English ones when it has Latin letters.
 */
export function negationCues(
  clause: string,
  lang: LexLang,
): Array<{ index: number; cue: string; kind: 'syntactic' | 'lexical' }> {
  const ko = hasHangul(clause);
  const en = /[A-Za-z]/.test(clause);
  if (ko && en)
    return [...negationCuesKorean(clause), ...negationCuesEnglish(clause)].sort((a, b) => a.index - b.index);
  if (ko || (!en && lang === 'ko')) return negationCuesKorean(clause);
  return negationCuesEnglish(clause);
}

/** Table sizes, for the report and the tests. */
export function lexiconSizes(): Record<string, number> {
  const groups = (t: string): number => lines(t).length;
  const pairs = (t: string): number => lines(t).length;
  return {
    koSynonymGroups: groups(KO_SYNONYMS),
    koAntonymPairs: pairs(KO_ANTONYMS),
    enSynonymGroups: groups(EN_SYNONYMS),
    enAntonymPairs: pairs(EN_ANTONYMS),
  };
}

/** Lemmas claimed by two synonym groups, and antonym pairs that collapse to one id: should be empty. */
export function lexiconConflicts(): string[] {
  return [...KO().conflicts.map((c) => `ko ${c}`), ...EN().conflicts.map((c) => `en ${c}`)];
}
