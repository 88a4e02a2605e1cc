import { canonical, canonicalPhrases, lemma, type LexLang } from './lexicon/index.js';
import { fastWords } from './segment.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';
import { hangulBigrams, numbersOf, wordKey, type Tokens } from './tokens.js';

/**
 * Tokens for support judging (docs/analysis.md#s1-2): multi-word paraphrases are rewritten to
 * one word first, then every word becomes the canonical id of its lemma's synonym group, so 결혼했다 and 혼인한 or
 * "purchase" and "bought" meet on one token. Korean lemmas also give their character bigrams (compounds written with
 * or without spaces still share tokens). The plain `tokenize` of tokens.ts stays for prompt research, whose merge
 * keys must not fold synonyms together.
 */

const HANGUL = /\p{Script=Hangul}/u;
const LATIN = /\p{Script=Latin}/u;
const HAN = /\p{Script=Han}/u;

export interface MatchWord {
  /** Canonical id of the word's lemma (the token that is compared). */
  id: string;
  lang: LexLang;
  /** The word as written (after the phrase rewrite). */
  surface: string;
}

/**
 * Content words of a text as canonical ids, in order (number-only words dropped; English stopwords dropped unless
 * `keepStopwords`, which the antonym check needs: more/less and before/after are stopwords).
 */
export function matchWords(text: string, keepStopwords = false): MatchWord[] {
  // Phrase tables of both languages, since one text may mix them; each is skipped when its script is absent.
  let rewritten = HANGUL.test(text) ? canonicalPhrases(text, 'ko') : text;
  if (LATIN.test(rewritten)) rewritten = canonicalPhrases(rewritten, 'en');
  const out: MatchWord[] = [];
  for (const raw of fastWords(rewritten)) {
    const w = wordKey(raw);
    if (w === '') continue;
    if (HANGUL.test(w)) {
      out.push({ id: canonical(lemma(w, 'ko'), 'ko'), lang: 'ko', surface: raw });
      continue;
    }
    if ((!keepStopwords && ENGLISH_STOPWORDS.has(w)) || !/\p{L}/u.test(w)) continue;
    // Hanja glosses in Korean text (고려 성종(成宗)) repeat the Hangul word; they are not words of either language.
    if (HAN.test(w)) continue;
    out.push({ id: canonical(lemma(w, 'en'), 'en'), lang: 'en', surface: raw });
  }
  return out;
}

/** Matching tokens: canonical ids, plus the Hangul bigrams of each Korean id (§1.2's dictionary-free part). */
export function matchTokens(text: string): Tokens {
  const tokens: string[] = [];
  const words: string[] = [];
  for (const w of matchWords(text)) {
    words.push(w.id);
    tokens.push(w.id);
    if (w.lang === 'ko') tokens.push(...hangulBigrams(w.id));
  }
  return { tokens, words, numbers: numbersOf(text) };
}
