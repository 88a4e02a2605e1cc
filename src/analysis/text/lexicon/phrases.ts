import { EN_PHRASES } from './english-tables.js';
import { KO_PHRASES } from './korean-tables.js';

/**
 * Multi-word paraphrase rewriting. Each table pattern is compiled once. A match must start at a word boundary
 * (no letter or digit before it); English matches must also end at one. Words inside a pattern are joined by
 * [ \t]+, so a rewrite never spans a line or a sentence break.
 */

interface Phrase {
  re: RegExp;
  rep: string;
}

const KO_COMPILED: readonly Phrase[] = KO_PHRASES.map(([p, rep]) => ({
  re: new RegExp(`(?<![\\p{L}\\p{N}])(?:${p})`, 'gu'),
  rep,
}));

const EN_COMPILED: readonly Phrase[] = EN_PHRASES.map(([p, rep]) => ({
  re: new RegExp(`(?<![\\p{L}\\p{N}'-])(?:${p})(?![\\p{L}\\p{N}])`, 'giu'),
  rep,
}));

const HANGUL = /[\uac00-\ud7a3]/u;
const LATIN = /[A-Za-z]/;

/** Korean first (its patterns only match Hangul), then English; text without either script is returned as is. */
export function rewritePhrases(text: string, lang: 'en' | 'ko'): string {
  let out = text;
  const tables = lang === 'ko' ? [KO_COMPILED, EN_COMPILED] : [EN_COMPILED, KO_COMPILED];
  for (const table of tables) {
    if (table === KO_COMPILED ? !HANGUL.test(out) : !LATIN.test(out)) continue;
    for (const { re, rep } of table) out = out.replace(re, rep);
  }
  return out;
}
