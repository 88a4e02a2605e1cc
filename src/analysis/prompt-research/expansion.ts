/** Expansion sets of docs/analysis.md#s3-3: the seed, modifier families and alphabet prefixes. */

export type PrefixClass = 'seed' | 'modifier' | 'alphabet' | 'depth2';

export interface ExpansionRequest {
  query: string;
  cls: PrefixClass;
}

const EN_MODIFIERS = [
  'what is {s}',
  'how to {s}',
  'how does {s}',
  'why {s}',
  'which {s}',
  'who {s}',
  'when {s}',
  'where {s}',
  'can {s}',
  'is {s}',
  'are {s}',
  'best {s}',
  '{s} vs',
  '{s} versus',
  '{s} or',
  '{s} for',
  '{s} with',
  '{s} without',
  '{s} near me',
  '{s} review',
  '{s} price',
  '{s} cost',
  '{s} alternatives',
  '{s} worth it',
];

// Korean is head-final, so intent words follow the topic.
const KO_MODIFIERS = [
  '{s} 추천',
  '{s} 비교',
  '{s} 차이',
  '{s} 방법',
  '{s} 하는법',
  '{s} 뜻',
  '{s} 가격',
  '{s} 비용',
  '{s} 후기',
  '{s} 리뷰',
  '{s} 순위',
  '{s} 장단점',
  '{s} 종류',
  '{s} 효과',
  '{s} 부작용',
  '{s} 가성비',
  '{s} 브랜드',
  '{s} 어디',
  '{s} 왜',
  '{s} 뭐',
  '{s} 얼마',
  '{s} 어떻게',
  '{s} vs',
  '어떤 {s}',
  '왜 {s}',
];

const EN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz'.split('');
const KO_ALPHABET = ['가', '나', '다', '라', '마', '바', '사', '아', '자', '차', '카', '타', '파', '하'];

export function expansionRequests(seed: string, language: 'en' | 'ko'): ExpansionRequest[] {
  const fill = (t: string) => t.replace('{s}', seed);
  const modifiers = language === 'ko' ? KO_MODIFIERS : EN_MODIFIERS;
  const alphabet = language === 'ko' ? KO_ALPHABET : EN_ALPHABET;
  return [
    { query: seed, cls: 'seed' },
    ...modifiers.map((m) => ({ query: fill(m), cls: 'modifier' as const })),
    ...alphabet.map((a) => ({ query: `${seed} ${a}`, cls: 'alphabet' as const })),
  ];
}
