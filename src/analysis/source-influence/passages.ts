import type { SourceInfluenceConfig } from '../config.js';
import { detectLanguage, type Language } from '../text/norm.js';
import { fastWords, sentences } from '../text/segment.js';
import { matchTokens } from '../text/match-tokens.js';
import { charNgrams, wordNgrams } from '../text/tokens.js';
import { counts } from '../text/similarity.js';

/** Passage index of §2.6: sentence windows per source, plus one `title + snippet` passage. */

export interface Features {
  /** The text the features were computed from. */
  text: string;
  language: Language;
  tokens: string[];
  tokenSet: Set<string>;
  /** Content words (stems) in order: triviality and word bigrams. */
  words: string[];
  numbers: Set<string>;
  /** Word bigrams of the content words (`en`) or character 4-grams of the compact text (`ko`). */
  grams: string[];
}

export interface Passage extends Features {
  source: number;
  fromSnippet: boolean;
  /** Sentences [first, end) of the source's sentence list (SourceSentences) this window spans; null for a snippet. */
  sentenceRange: [number, number] | null;
  /** Lazily built multisets of both n-gram kinds, so a unit of either language can be scored. */
  bigramCounts: Map<string, number> | null;
  char4Counts: Map<string, number> | null;
}

export function featuresOf(text: string, fallback: Language): Features {
  const detected = detectLanguage(text);
  return featuresIn(text, detected === 'und' ? fallback : detected);
}

/** Features of a text whose language is already known (a sentence or window of a page read as that language). */
export function featuresIn(text: string, language: Language): Features {
  const t = matchTokens(text);
  return {
    text,
    language,
    tokens: t.tokens,
    tokenSet: new Set(t.tokens),
    words: t.words,
    numbers: new Set(t.numbers),
    grams: language === 'ko' ? charNgrams(text, 4) : wordNgrams(t.words, 2),
  };
}

export function bigramCounts(p: Passage): Map<string, number> {
  p.bigramCounts ??= counts(wordNgrams(p.words, 2));
  return p.bigramCounts;
}

export function char4Counts(p: Passage): Map<string, number> {
  p.char4Counts ??= counts(charNgrams(p.text, 4));
  return p.char4Counts;
}

/** Splits a sentence longer than the window into window-sized pieces (pages without punctuation). */
function pieces(sentence: string, lang: Language, cfg: SourceInfluenceConfig['passage']): string[] {
  if (lang === 'ko') {
    if (sentence.length <= cfg.maxCharsKo) return [sentence];
    const out: string[] = [];
    for (let i = 0; i < sentence.length; i += cfg.maxCharsKo) out.push(sentence.slice(i, i + cfg.maxCharsKo));
    return out;
  }
  const ws = sentence.split(/\s+/);
  if (ws.length <= cfg.maxWordsEn) return [sentence];
  const out: string[] = [];
  for (let i = 0; i < ws.length; i += cfg.maxWordsEn) out.push(ws.slice(i, i + cfg.maxWordsEn).join(' '));
  return out;
}

/** A source's text cut into sentences (long ones into window-sized pieces), the units of evidence windows. */
function sourceSentences(text: string, lang: Language, cfg: SourceInfluenceConfig['passage']): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) for (const s of sentences(line, lang)) out.push(...pieces(s.text, lang, cfg));
  return out;
}

/** Windows of consecutive sentences up to 80 words (`en`) / 200 characters (`ko`), stride half a window. */
function windows(
  sents: readonly string[],
  lang: Language,
  cfg: SourceInfluenceConfig['passage'],
): Array<[number, number]> {
  const sizes = sents.map((t) => (lang === 'ko' ? t.length : fastWords(t).length));
  const limit = lang === 'ko' ? cfg.maxCharsKo : cfg.maxWordsEn;
  const out: Array<[number, number]> = [];
  let start = 0;
  while (start < sents.length) {
    let end = start;
    let size = 0;
    while (end < sents.length && (end === start || size + (sizes[end] ?? 0) <= limit)) {
      size += sizes[end] ?? 0;
      end++;
    }
    out.push([start, end]);
    if (end >= sents.length) break;
    start += Math.max(1, Math.floor((end - start) / 2));
  }
  return out;
}

export interface SourceTextInput {
  /** Page text, or the snippet/title fallback text when there is no page text. */
  text: string | null;
  /** `title + snippet` of the request, indexed as its own passage when page text exists. */
  snippetText: string | null;
  language: Language;
}

export interface PassageIndex {
  passages: Passage[];
  /** Passage indexes of each source. */
  perSource: number[][];
  /** Each source's sentences, for evidence windows around the best-matching sentence. */
  sentencesPerSource: string[][];
}

export function buildPassages(
  sources: readonly SourceTextInput[],
  cfg: SourceInfluenceConfig['passage'],
): PassageIndex {
  const passages: Passage[] = [];
  const perSource: number[][] = sources.map(() => []);
  const sentencesPerSource: string[][] = sources.map(() => []);
  const add = (source: number, text: string, range: [number, number] | null, lang: Language) => {
    const f = featuresOf(text, lang);
    if (f.tokens.length === 0 && f.numbers.size === 0) return;
    perSource[source]?.push(passages.length);
    passages.push({
      ...f,
      source,
      text,
      fromSnippet: range === null,
      sentenceRange: range,
      bigramCounts: null,
      char4Counts: null,
    });
  };
  sources.forEach((s, j) => {
    if (s.text) {
      const sents = sourceSentences(s.text, s.language, cfg);
      sentencesPerSource[j] = sents;
      for (const [a, b] of windows(sents, s.language, cfg)) add(j, sents.slice(a, b).join(' '), [a, b], s.language);
    }
    if (s.snippetText) add(j, s.snippetText, null, s.language);
  });
  return { passages, perSource, sentencesPerSource };
}
