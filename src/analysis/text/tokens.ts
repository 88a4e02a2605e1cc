import { fastWords } from './segment.js';
import { stemEnglish } from './stemmer.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';

/** Tokens for matching (§1.2). Script decides per word, so mixed Korean/English text works. */

const PARTICLES = [
  '이라도',
  '에서',
  '에게',
  '한테',
  '으로',
  '까지',
  '부터',
  '이나',
  '이랑',
  '처럼',
  '보다',
  '조차',
  '마저',
  '라도',
  '이란',
  '이며',
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '의',
  '에',
  '께',
  '로',
  '와',
  '과',
  '도',
  '만',
  '나',
  '랑',
  '란',
  '며',
].sort((a, b) => b.length - a.length);

const HANGUL_WORD = /\p{Script=Hangul}/u;
const NUMBER = /\d+(?:[.,]\d+)*/g;

/** Strips one trailing particle when at least two syllables remain (§1.2, Design). */
export function stripParticle(word: string): string {
  for (const p of PARTICLES) {
    if (word.endsWith(p) && [...word.slice(0, -p.length)].length >= 2) return word.slice(0, -p.length);
  }
  return word;
}

export interface Tokens {
  /** Content tokens in order (multiset): English stems; Korean stems plus their character bigrams. */
  tokens: string[];
  /** Content words in order (one per word: English stem or Korean stem), for word n-grams and triviality. */
  words: string[];
  /** Numbers, thousands separators removed (`1,000` → `1000`). */
  numbers: string[];
}

/** A word as matched: lower case, without digits, separators and surrounding apostrophes ("" when none is left). */
export function wordKey(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[\d.,]+/g, '')
    .replace(/^'+|(?<!')'+$/g, '');
}

/** The Hangul character bigrams of a Korean stem, the stem itself excepted (§1.2's dictionary-free part). */
export function hangulBigrams(stem: string): string[] {
  const chars = [...stem].filter((c) => HANGUL_WORD.test(c));
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) {
    const bigram = (chars[i] ?? '') + (chars[i + 1] ?? '');
    if (bigram !== stem) out.push(bigram);
  }
  return out;
}

export function tokenize(text: string): Tokens {
  const tokens: string[] = [];
  const contentWords: string[] = [];
  for (const raw of fastWords(text)) {
    const w = wordKey(raw);
    if (w === '') continue;
    if (HANGUL_WORD.test(w)) {
      const stem = stripParticle(w);
      contentWords.push(stem);
      tokens.push(stem, ...hangulBigrams(stem));
    } else {
      if (ENGLISH_STOPWORDS.has(w) || !/\p{L}/u.test(w)) continue;
      const stem = stemEnglish(w);
      contentWords.push(stem);
      tokens.push(stem);
    }
  }
  return { tokens, words: contentWords, numbers: numbersOf(text) };
}

export function numbersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const s = m[0];
    const parts = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s) ? [s.replace(/,/g, '')] : s.split(',');
    for (const p of parts) {
      const n = Number(p.replace(/\.$/, ''));
      if (p !== '' && Number.isFinite(n)) out.push(String(n));
    }
  }
  return out;
}

/** Word n-grams of a token sequence. */
export function wordNgrams(seq: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= seq.length; i++) out.push(seq.slice(i, i + n).join(' '));
  return out;
}

/** Character n-grams of the whitespace- and punctuation-free, lower-cased string. */
export function charNgrams(text: string, n: number): string[] {
  const chars = [...text.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '')];
  const out: string[] = [];
  for (let i = 0; i + n <= chars.length; i++) out.push(chars.slice(i, i + n).join(''));
  return out;
}
