import { nameMatcher, type NameMatcher } from '../text/name-match.js';
import { trimEndChars } from '../text/norm.js';

/** Suggestion filters of §3.5, in the order that the stats count them. */

/** 1. Navigational: URLs and domain-like suggestions, or Google type NAVIGATION. */
export function isNavigational(text: string, googleType: string | null): boolean {
  if (googleType === 'NAVIGATION') return true;
  return /www\.|http|\.com\b|\.co\.kr\b|\.net\b/i.test(text);
}

const HANGUL = /\p{Script=Hangul}/u;
const CJK_OTHER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LATIN = /\p{Script=Latin}/u;

/**
 * 2. Script: KR keeps suggestions with a Hangul letter, plus Latin-only ones from Naver (Korean users
 * type product names in Latin); US drops Hangul/Han/Kana unless the seed itself uses that script.
 */
export function passesScript(text: string, country: 'KR' | 'US', provider: string, seed: string): boolean {
  if (country === 'KR') {
    if (HANGUL.test(text)) return true;
    return provider === 'naver' && LATIN.test(text) && !CJK_OTHER.test(text);
  }
  if (HANGUL.test(text) && !HANGUL.test(seed)) return false;
  if (CJK_OTHER.test(text) && !CJK_OTHER.test(seed)) return false;
  return true;
}

const EN_START = /^(what|how|why|when|where|which|who|whom|whose|can|could|should|would|will|is|are|do|does|did)\b/i;
const EN_CONTAINS_WORDS = [
  'best|top|vs|versus|compare|comparison|difference|review|reviews',
  'alternative|alternatives|price|cost|worth|near me|how to',
];
const EN_CONTAINS = new RegExp(String.raw`\b(${EN_CONTAINS_WORDS.join('|')})\b| for `, 'i');
const KO_ENDING = /(까|까요|나요|가요|니|냐|ㄹ까|을까|는지|은지|인지|할까|될까|있나|없나|되나)$/;
const KO_INTERROGATIVE = /어떻게|어떤|어느|왜|뭐|뭔|무엇|무슨|어디|언제|누가|누구|얼마|몇/;
const KO_INTENT =
  /추천|비교|차이|방법|하는법|하는 법|사용법|뜻|의미|가격|비용|후기|리뷰|순위|장단점|종류|효과|부작용|팁|주의사항|vs/i;

/** A question as typed: interrogative start, `?`, Korean question ending or interrogative word (§3.8 "observed"). */
export function isInterrogative(text: string): boolean {
  const t = text.trim();
  const bare = trimEndChars(t, '?').trim();
  return t.includes('?') || EN_START.test(t) || KO_ENDING.test(bare) || KO_INTERROGATIVE.test(t);
}

/** 3. Question-likeness: any rule of either market fires. */
export function isQuestionLike(text: string): boolean {
  return isInterrogative(text) || EN_CONTAINS.test(text) || KO_INTENT.test(text);
}

/** 4. Brand (and aliases), then exclude terms, by the matching rules of §2.11.2. */
export class TermFilter {
  private readonly brand: NameMatcher[];
  private readonly exclude: NameMatcher[];

  constructor(brandNames: readonly string[], excludeTerms: readonly string[]) {
    this.brand = brandNames.map(nameMatcher).filter((m): m is NameMatcher => m !== null);
    this.exclude = excludeTerms.map(nameMatcher).filter((m): m is NameMatcher => m !== null);
  }

  hasBrand(text: string): boolean {
    return this.brand.some((m) => m.test(text));
  }

  hasExcluded(text: string): boolean {
    return this.exclude.some((m) => m.test(text));
  }
}
