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

type Template = readonly [RegExp, (m: RegExpExecArray) => string];

/** "shoes", "running shoes": plural head noun (a crude rule: ends in s, not in ss/us/is). */
function isPlural(np: string): boolean {
  const head = (np.trim().split(/\s+/).pop() ?? '').toLowerCase();
  return /[^su]s$/.test(head) && !/(is|ss|us)$/.test(head);
}
const be = (np: string) => (isPlural(np) ? 'are' : 'is');
const doVerb = (np: string) => (isPlural(np) ? 'do' : 'does');
const best = (np: string) => `What ${be(np)} the best ${np}`;

/**
 * English templates for what an observed suggestion is grammatically. Verb phrases (`how to X`,
 * `X how to V`) become "How do I …?"; everything else here is a noun phrase X with a modifier, and
 * each template is grammatical for any noun phrase (number agreement by `isPlural`).
 */
const EN_TEMPLATES: readonly Template[] = [
  [/^(?:how to|ways to|steps to)\s+(.+)$/i, (m) => `How do I ${m[1]}?`],
  [/^where to\s+(.+)$/i, (m) => `Where can I ${m[1]}?`],
  [/^when to\s+(.+)$/i, (m) => `When should I ${m[1]}?`],
  [/^which\s+(.+?)\s+to\s+(\S+)$/i, (m) => `Which ${m[1]} should I ${m[2]}?`],
  [/^(.+?)\s+how to\s+(\S+)$/i, (m) => `How do I ${m[2]} ${m[1]}?`],
  [/^(?:best|top)\s+(.+?)\s+(for|with)\s+(.+)$/i, (m) => `${best(m[1] as string)} ${m[2]?.toLowerCase()} ${m[3]}?`],
  [/^(?:best|top)\s+(.+)$/i, (m) => `${best(m[1] as string)}?`],
  [/^(.+?)\s+for beginners$/i, (m) => `What should a beginner know about ${m[1]}?`],
  [/^(.+?)\s+(?:vs\.?|versus)\s+(.+)$/i, (m) => `Which is better, ${m[1]} or ${m[2]}?`],
  // Not "What are the best X for Y?": that is the text of `best X for Y`, a different query.
  [/^(.+?)\s+for\s+(.+)$/i, (m) => `Which ${m[1]} ${be(m[1] as string)} best for ${m[2]}?`],
  [/^(.+?)\s+with\s+(.+)$/i, (m) => `${best(m[1] as string)} with ${m[2]}?`],
  [/^(.+?)\s+near me$/i, (m) => `Where can I find ${m[1]} near me?`],
  [/^(.+?)\s+(?:price|cost)s?$/i, (m) => `How much ${doVerb(m[1] as string)} ${m[1]} cost?`],
  [/^(.+?)\s+reviews?$/i, (m) => `What do reviews say about ${m[1]}?`],
  [/^(.+?)\s+alternatives?$/i, (m) => `What are the best alternatives to ${m[1]}?`],
  [/^(.+?)\s+(?:meaning|definition)$/i, (m) => `What does ${m[1]} mean?`],
  [/^(.+?)\s+worth it$/i, (m) => `${isPlural(m[1] as string) ? 'Are' : 'Is'} ${m[1]} worth it?`],
];

/**
 * Korean templates. Korean puts the intent word last, so `X 추천` → "X 추천해줘"; verb phrases
 * (`X 하는 법`, `X 세탁하는법`, `X 보는법`) become "… 방법 알려줘", never a noun slot.
 */
const KO_TEMPLATES: readonly Template[] = [
  [/^(.+?)\s*추천\s*순위$/, (m) => `${m[1]} 추천 순위 알려줘`],
  [/^(.+?)\s*(?:추천\s*)?가성비$/, (m) => `가성비 좋은 ${m[1]} 추천해줘`],
  [/^(.+?)\s*추천$/, (m) => `${m[1]} 추천해줘`],
  // `러닝화 추천 여성`: the word after 추천 says for whom.
  [/^(.+?)\s*추천\s+([^\s\d]+)$/, (m) => `${m[2]} ${m[1]} 추천해줘`],
  [/^(.+?)\s*(?:vs|VS)\s*(.+)$/, (m) => `${m[1]}와 ${m[2]} 비교해줘`],
  [/^(.+?)\s*비교$/, (m) => `${m[1]} 비교해줘`],
  [/^(.+?)\s*차이점?$/, (m) => `${m[1]} 차이가 뭐야?`],
  [/^(.+?)\s*사용법$/, (m) => `${m[1]} 사용법 알려줘`],
  [/^(.+?)(\s?)하는\s?(?:법|방법)$/, (m) => `${m[1]}${m[2]}하는 방법 알려줘`],
  [/^(.+?)\s+(\S+는)\s?(?:법|방법)$/, (m) => `${m[1]} ${m[2]} 방법 알려줘`],
  [/^(.+?)\s*방법$/, (m) => `${m[1]} 방법 알려줘`],
  [/^(.+?)\s*(?:뜻|의미)$/, (m) => `${m[1]} 뜻이 뭐야?`],
  [/^(.+?)\s*(?:가격|비용)$/, (m) => `${m[1]} 가격은 얼마야?`],
  [/^(.+?)\s*(후기|리뷰)\s+(디시|더쿠)$/, (m) => `${m[3]}에 올라온 ${m[1]} ${m[2]} 알려줘`],
  [/^(.+?)\s*(후기|리뷰|순위|장단점|종류|효과|부작용|브랜드)$/, (m) => `${m[1]} ${m[2]} 알려줘`],
];

/**
 * A trailing year: the rest is templated and the year added ("… in 2024?", "2024년 …"). Given the clock's year, an
 * earlier one is asked as this year's: people still type last year's ("best shoes 2025" in January 2026), and what
 * they want is this year's answer, so a monitor must not ask an engine about a past year.
 */
const TRAILING_YEAR = /^(.+?)\s+((?:19|20)\d\d)$/;

function capitaliseFirstLatin(s: string): string {
  return s.replace(/\p{Script=Latin}/u, (c) => c.toUpperCase());
}

/** `how to …`, `where to …` are verb phrases to template, not questions as typed; other interrogatives are. */
const EN_VERB_PHRASE = /^(?:(?:how|ways|steps|where|when) to\s|which\s.+\sto\s\S+$)/i;

/**
 * `how to <seed> <verb>` puts the topic where the verb belongs (the seed is a topic, a noun
 * phrase): read as `<seed> how to <verb>` when one word follows, else not templated at all.
 */
function seedInVerbSlot(q: string, seed: string | undefined): string | null | undefined {
  const s = seed?.trim().toLowerCase();
  const m = /^(?:how to|ways to|steps to)\s+(.+)$/i.exec(q);
  if (!s || !m || !(m[1] as string).toLowerCase().startsWith(`${s} `)) return undefined;
  const rest = (m[1] as string).slice(s.length).trim();
  return /^\S+$/.test(rest) ? `${seed?.trim()} how to ${rest}` : null;
}

/**
 * What a person would type to an assistant for this observed query (§3.8): a suggestion that is
 * already a question is kept verbatim (`observed`); a verb phrase or noun phrase is templated by a
 * form that is grammatical for it (`templated`); anything else is asked about as a noun phrase.
 * A noun phrase is never put where a verb belongs: an unreadable `how to <seed> …` stays verbatim.
 */
export function questionText(
  query: string,
  seed?: string,
  clockYear?: number,
): { text: string; origin: 'observed' | 'templated' } {
  let q = query.trim().replace(/\s+/g, ' ');
  const lang = detectLanguage(q) === 'ko' ? 'ko' : 'en';
  const reread = lang === 'en' ? seedInVerbSlot(q, seed) : undefined;
  if (reread) q = reread;
  if (reread === null || (isInterrogative(q) && !(lang === 'en' && EN_VERB_PHRASE.test(q)))) {
    let text = capitaliseFirstLatin(q);
    if (lang === 'en' && !text.endsWith('?')) text += '?';
    return { text, origin: 'observed' };
  }
  const year = TRAILING_YEAR.exec(q);
  if (year) {
    const rest = questionText(year[1] as string, seed);
    const asked = clockYear !== undefined && Number(year[2]) < clockYear ? String(clockYear) : (year[2] as string);
    if (rest.origin === 'templated')
      return {
        text: lang === 'ko' ? `${asked}년 ${rest.text}` : rest.text.replace(/\?$/, ` in ${asked}?`),
        origin: 'templated',
      };
  }
  const templates = lang === 'ko' ? KO_TEMPLATES : EN_TEMPLATES;
  for (const [re, build] of templates) {
    const m = re.exec(q);
    if (m && (m[1] ?? '').trim() !== '') {
      const text = build(m);
      return { text: lang === 'en' ? capitaliseFirstLatin(text) : text, origin: 'templated' };
    }
  }
  return {
    text: lang === 'ko' ? `${q}에 대해 알려줘` : `What should I know about ${q}?`,
    origin: 'templated',
  };
}
