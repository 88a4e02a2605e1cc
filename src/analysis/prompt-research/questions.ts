import { escapeRegExp } from '../text/name-match.js';
import { detectLanguage } from '../text/norm.js';
import { isInterrogative } from './filters.js';

/** Question text (§3.8) and intent (§3.9), deterministic. */

export type Intent = 'comparison' | 'recommendation' | 'transactional' | 'definition' | 'how_to' | 'problem' | 'other';
export const INTENT_ORDER: readonly Intent[] = [
  'comparison',
  'recommendation',
  'transactional',
  'definition',
  'how_to',
  'problem',
  'other',
];

const INTENT_WORDS: ReadonlyArray<[Intent, readonly string[], readonly string[]]> = [
  ['comparison', ['vs', 'versus', 'or', 'compare', 'difference', 'better than'], ['비교', '차이', 'vs', '아니면']],
  [
    'recommendation',
    ['best', 'top', 'recommend', 'review', 'reviews', 'alternatives', 'worth it'],
    ['추천', '순위', '후기', '리뷰', '가성비', '좋은', '인기'],
  ],
  [
    'transactional',
    ['price', 'cost', 'cheap', 'buy', 'discount', 'coupon', 'near me', 'where to buy'],
    ['가격', '비용', '얼마', '구매', '할인', '쿠폰', '최저가', '파는곳', '근처'],
  ],
  ['definition', ['what is', 'meaning', 'definition'], ['뜻', '의미', '이란', '뭐야']],
  ['how_to', ['how to', 'how do', 'steps', 'guide'], ['방법', '하는법', '사용법', '어떻게']],
  [
    'problem',
    ['why', 'problem', 'side effects', 'not working', 'safe'],
    ['왜', '부작용', '문제', '안됨', '원인', '위험'],
  ],
];

const enWord = (w: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(w)}(?![\\p{L}\\p{N}])`, 'iu');
const MATCHERS = INTENT_WORDS.map(([intent, en, ko]) => ({
  intent,
  words: [...en.map((w) => ({ w, re: enWord(w) })), ...ko.map((w) => ({ w, re: new RegExp(escapeRegExp(w)) }))],
}));

/** First matching intent class and the word that decided it (the `modifier`). */
export function classifyIntent(query: string): { intent: Intent; modifier: string | null } {
  for (const m of MATCHERS) {
    for (const { w, re } of m.words) if (re.test(query)) return { intent: m.intent, modifier: w };
  }
  return { intent: 'other', modifier: null };
}

/** Every intent word a text contains (near-duplicates with different intent words never merge, §3.6). */
export function intentWords(query: string): string[] {
  const out = new Set<string>();
  for (const m of MATCHERS)
    for (const { w, re } of m.words) if (re.test(query)) out.add(w === 'reviews' ? 'review' : w);
  return [...out].sort();
}

const EN_TEMPLATES: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^(?:best|top)\s+(.+)$/i, (m) => `What are the best ${m[1]}?`],
  [/^(.+?)\s+(?:vs\.?|versus)\s+(.+)$/i, (m) => `${m[1]} vs ${m[2]}: which is better?`],
  [/^(.+?)\s+for\s+(.+)$/i, (m) => `What is the best ${m[1]} for ${m[2]}?`],
  [/^(.+?)\s+near me$/i, (m) => `Where can I find ${m[1]} near me?`],
  [/^(.+?)\s+(?:price|cost)s?$/i, (m) => `How much does ${m[1]} cost?`],
  [/^(.+?)\s+reviews?$/i, (m) => `What do reviews say about ${m[1]}?`],
  [/^(.+?)\s+alternatives?$/i, (m) => `What are the best alternatives to ${m[1]}?`],
  [/^(.+?)\s+(?:meaning|definition)$/i, (m) => `What does ${m[1]} mean?`],
];

const KO_TEMPLATES: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^(.+?)\s*추천$/, (m) => `${m[1]} 추천해줘`],
  [/^(.+?)\s*비교$/, (m) => `${m[1]} 비교해줘`],
  [/^(.+?)\s*차이$/, (m) => `${m[1]} 차이가 뭐야?`],
  [/^(.+?)\s*(?:방법|하는\s?법|사용법)$/, (m) => `${m[1]} 방법 알려줘`],
  [/^(.+?)\s*(?:뜻|의미)$/, (m) => `${m[1]} 뜻이 뭐야?`],
  [/^(.+?)\s*(?:가격|비용)$/, (m) => `${m[1]} 가격은 얼마야?`],
  [/^(.+?)\s*(후기|리뷰|순위|장단점|종류|효과|부작용)$/, (m) => `${m[1]} ${m[2]} 알려줘`],
];

function capitaliseFirstLatin(s: string): string {
  return s.replace(/\p{Script=Latin}/u, (c) => c.toUpperCase());
}

/** What a person would type to an assistant for this observed query. */
export function questionText(query: string): { text: string; origin: 'observed' | 'templated' } {
  const lang = detectLanguage(query) === 'ko' ? 'ko' : 'en';
  if (isInterrogative(query)) {
    let text = capitaliseFirstLatin(query.trim());
    if (lang === 'en' && !text.endsWith('?')) text += '?';
    return { text, origin: 'observed' };
  }
  const templates = lang === 'ko' ? KO_TEMPLATES : EN_TEMPLATES;
  for (const [re, build] of templates) {
    const m = re.exec(query.trim());
    if (m && (m[1] ?? '').trim() !== '')
      return { text: lang === 'en' ? capitaliseFirstLatin(build(m)) : build(m), origin: 'templated' };
  }
  return {
    text: lang === 'ko' ? `${query.trim()}에 대해 알려줘` : `What should I know about ${query.trim()}?`,
    origin: 'templated',
  };
}
