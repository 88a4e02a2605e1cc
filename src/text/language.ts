/**
 * Language detection (docs/analysis.md#s0): below the engines and the analyses, since page
 * extraction (src/engines/common/page-extract.ts) and the analyses both decide by it.
 */

export type Language = 'ko' | 'en' | 'und';

const HANGUL_G = /\p{Script=Hangul}/gu;
const LATIN_G = /\p{Script=Latin}/gu;
const LETTER_G = /\p{L}/gu;

/** `ko` if Hangul letters are at least 20 % of all letters, `en` if Latin dominates, else `und`. */
export function detectLanguage(text: string): Language {
  const letters = text.match(LETTER_G)?.length ?? 0;
  if (letters === 0) return 'und';
  const hangul = text.match(HANGUL_G)?.length ?? 0;
  if (hangul / letters >= 0.2) return 'ko';
  const latin = text.match(LATIN_G)?.length ?? 0;
  return latin / letters > 0.5 ? 'en' : 'und';
}
