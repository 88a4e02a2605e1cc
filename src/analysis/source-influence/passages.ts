import type { SourceInfluenceConfig } from '../config.js';
import { detectLanguage, type Language } from '../text/norm.js';
import { fastWords, sentences } from '../text/segment.js';
import { charNgrams, tokenize, wordNgrams } from '../text/tokens.js';
import { counts } from '../text/similarity.js';

/** Passage index of §2.6: sentence windows per source, plus one `title + snippet` passage. */

export interface Features {
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
  text: string;
  fromSnippet: boolean;
  /** Lazily built multisets of both n-gram kinds, so a unit of either language can be scored. */
  bigramCounts: Map<string, number> | null;
  char4Counts: Map<string, number> | null;
}

export function featuresOf(text: string, fallback: Language): Features {
  const detected = detectLanguage(text);
  const language = detected === 'und' ? fallback : detected;
  const t = tokenize(text);
  return {
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

/** Windows of consecutive sentences up to 80 words (`en`) / 200 characters (`ko`), stride half a window. */
export function windows(text: string, lang: Language, cfg: SourceInfluenceConfig['passage']): string[] {
  const sents: Array<{ text: string; size: number }> = [];
  for (const line of text.split('\n')) {
    for (const s of sentences(line, lang)) {
      for (const p of pieces(s.text, lang, cfg))
        sents.push({ text: p, size: lang === 'ko' ? p.length : fastWords(p).length });
    }
  }
  const limit = lang === 'ko' ? cfg.maxCharsKo : cfg.maxWordsEn;
  const out: string[] = [];
  let start = 0;
  while (start < sents.length) {
    let end = start;
    let size = 0;
    while (end < sents.length && (end === start || size + (sents[end]?.size ?? 0) <= limit)) {
      size += sents[end]?.size ?? 0;
      end++;
    }
    out.push(
      sents
        .slice(start, end)
        .map((s) => s.text)
        .join(' '),
    );
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

export function buildPassages(
  sources: readonly SourceTextInput[],
  cfg: SourceInfluenceConfig['passage'],
): { passages: Passage[]; perSource: number[][] } {
  const passages: Passage[] = [];
  const perSource: number[][] = sources.map(() => []);
  const add = (source: number, text: string, fromSnippet: boolean, lang: Language) => {
    const f = featuresOf(text, lang);
    if (f.tokens.length === 0 && f.numbers.size === 0) return;
    perSource[source]?.push(passages.length);
    passages.push({ ...f, source, text, fromSnippet, bigramCounts: null, char4Counts: null });
  };
  sources.forEach((s, j) => {
    if (s.text) for (const w of windows(s.text, s.language, cfg)) add(j, w, false, s.language);
    if (s.snippetText) add(j, s.snippetText, true, s.language);
  });
  return { passages, perSource };
}
