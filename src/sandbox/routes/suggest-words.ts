/**
 * Word lists of the autocomplete simulator (suggest.ts). The general lists hold only modifiers that
 * read sensibly after any noun phrase (`review`, `for beginners`, `추천`, `장단점` …); brands,
 * audiences and product facts (`nike`, `for women`, `로얄캐닌`, `퍼피`) live in topic lists that apply
 * only when the typed prefix names that topic, so no seed gets a product word that is not its own.
 * Lists are in popularity order: the first ones are what most people typed after the prefix.
 */

export const EN_TAILS = [
  'review',
  'for beginners',
  'price',
  'alternatives',
  'amazon.com',
  'meaning',
  'worth it',
  'guide',
  'pros and cons',
  'comparison',
  'examples',
  'cost',
  'tips',
  'reddit',
];

/**
 * The simulator's years come from the clock: people type this year, and still last year's early in a year. A
 * fixed "2025" made every research of 2026 ask about a past year.
 */
export function thisYear(): string {
  return String(new Date().getUTCFullYear());
}
export function lastYear(): string {
  return String(new Date().getUTCFullYear() - 1);
}

/** After a completed modifier (`X review`, `X price`, `X 2024`): what people add to that. */
export function enExtendTails(): string[] {
  return [thisYear()];
}

/** What follows a bare preposition, by the preposition; unknown ones get no completion. */
export const EN_AFTER_WORD: Readonly<Record<string, readonly string[]>> = {
  for: ['beginners', 'students'],
};

const plural = (np: string) => {
  const head = (np.split(' ').pop() ?? '').toLowerCase();
  return /[^su]s$/.test(head) && !/(is|ss|us)$/.test(head);
};
const be = (np: string) => (plural(np) ? 'are' : 'is');
const doVerb = (np: string) => (plural(np) ? 'do' : 'does');

/**
 * Completions of a question prefix `<question word> <topic>`: whole questions about the topic, the way
 * real autocomplete rewrites `how to running shoes` into `how to clean running shoes`.
 */
export const EN_QUESTIONS: ReadonlyArray<[RegExp, (topic: string) => string[]]> = [
  [/^what (?:is|are) (.+)$/i, (s) => [`what ${be(s)} ${s} used for`, `what ${be(s)} the best ${s}`]],
  [/^how to (.+)$/i, (s) => [`how to choose ${s}`, `how to use ${s}`, `how to compare ${s}`]],
  [/^how (?:does|do) (.+)$/i, (s) => [`how ${doVerb(s)} ${s} work`, `how ${doVerb(s)} ${s} compare`]],
  [/^why (.+)$/i, (s) => [`why use ${s}`, `why ${be(s)} ${s} popular`, `why ${be(s)} ${s} so expensive`]],
  [/^which (.+)$/i, (s) => [`which ${s} ${be(s)} best`, `which ${s} to choose`]],
  [/^who (.+)$/i, (s) => [`who makes ${s}`, `who uses ${s}`]],
  [/^when (.+)$/i, (s) => [`when to use ${s}`]],
  [/^where (.+)$/i, (s) => [`where to find ${s}`, `where to learn about ${s}`]],
  [/^(?:is|are) (.+)$/i, (s) => [`${be(s)} ${s} worth it`, `${be(s)} ${s} good for beginners`]],
  [/^can (.+)$/i, (s) => [`can beginners use ${s}`]],
];

/** Words that finish a question: a prefix holding one is a whole question (a depth-2 prefix), not a topic. */
export const EN_QUESTION_DONE =
  /\b(used|best|work|compare|choose|use|popular|expensive|makes|uses|find|learn|worth|beginners|clean|lace|break)\b/i;

export const EN_LETTERS: Readonly<Record<string, readonly string[]>> = {
  a: ['alternatives'],
  b: ['benefits', 'best practices'],
  c: ['cost', 'comparison'],
  d: ['definition'],
  e: ['examples'],
  f: ['for beginners', 'features'],
  g: ['guide'],
  h: ['history'],
  i: ['ideas'],
  l: ['list'],
  m: ['meaning'],
  n: ['news'],
  o: ['online', 'options'],
  p: ['price', 'pros and cons'],
  q: ['questions'],
  r: ['review', 'reddit'],
  t: ['tips', 'types'],
  u: ['uses'],
  w: ['worth it'],
};

export const EN_WRONG_SCRIPT = ['추천', 'おすすめ'];

/** Korean: head-final, so the intent word follows the topic. */
export const koTails = (): string[] => [
  '추천',
  '비교',
  '순위',
  `추천 ${thisYear()}`,
  `추천 ${lastYear()}`,
  '가격',
  '후기',
  '종류',
  '브랜드',
  '장단점',
  'shop.example.co.kr',
  '가성비',
  '고르는 법',
  '어떤게 좋을까',
];
/**
 * After a completed Korean intent word, by the word: recommendations get a year, `순위`, `가성비` and
 * the topic's audiences; rankings a year; reviews communities; prices a comparison; others nothing.
 */
export const koExtendTails = (): ReadonlyArray<[RegExp, readonly string[]]> => [
  [/추천$/, [thisYear(), '순위', '가성비']],
  [/(순위|브랜드|비교|가성비|\d)$/, [thisYear()]],
  [/(후기|리뷰)$/, ['디시', '더쿠']],
  [/(가격|비용)$/, ['비교']],
];
/** `<topic> 방법` / `<topic> 하는법` for a topic without its own verbs: how-to forms that fit any noun. */
export const KO_HOW_TO = ['사용 방법', '고르는 방법'];

/** `<topic> <question word>`: whole questions, by the word typed. `{이}`/`{을}` take the topic's particle. */
export const KO_QUESTION_WORD_TAILS: Readonly<Record<string, readonly string[]>> = {
  어디: ['어디서 사요', '어디가 싸요', '어디서 사나요'],
  왜: ['왜 비싼가요', '왜 인기인가요'],
  뭐: ['뭐가 좋아요', '뭐가 다른가요'],
  얼마: ['얼마예요', '얼마나 하나요'],
  어떻게: ['어떻게 골라요', '어떻게 보관하나요'],
};
/** `어떤 <topic>` and `왜 <topic>`: the particle after the topic depends on its last syllable. */
export const KO_QUESTION_TAILS = ['{이} 좋을까', '{을} 골라야 할까', '{이} 좋은가요'];

export const KO_SYLLABLES: Readonly<Record<string, readonly string[]>> = {
  가: ['가격', '가성비', '가격 비교'],
  나: ['나무위키'],
  다: ['단점'],
  마: ['만족도'],
  사: ['사용법', '사이즈'],
  자: ['장단점'],
  차: ['차이', '차이점'],
  파: ['파는곳'],
  하: ['할인'],
};

export interface Topic {
  /** Matched against the typed prefix. */
  match: RegExp;
  tails: readonly string[];
  extendTails?: readonly string[];
  /** Korean `<topic> 방법` / `하는법` completions: the topic's own verbs. */
  howToKo?: readonly string[];
  /** What `<topic> vs` is compared with. */
  versus?: readonly string[];
  afterWord?: Readonly<Record<string, readonly string[]>>;
  howTo?: readonly string[];
  letters?: Readonly<Record<string, readonly string[]>>;
  questionWordTails?: Readonly<Record<string, readonly string[]>>;
  questionTails?: readonly string[];
  /** Answers in another script, so the script filter has work (Naver's and Google's). */
  naverExtra?: readonly string[];
  googleExtra?: readonly string[];
}

/** Topic words: applied only when the prefix names the topic. */
export const TOPICS: readonly Topic[] = [
  {
    match: /\b(?:running |walking |trail )?(?:shoes?|sneakers?)\b/i,
    tails: ['for women', 'for men', 'for flat feet', 'vs walking shoes', 'nike', 'with arch support', 'on sale'],
    extendTails: ['for women', 'for men'],
    afterWord: {
      for: ['women', 'men', 'flat feet'],
      vs: ['walking shoes', 'sneakers'],
      with: ['arch support'],
    },
    howTo: ['clean', 'lace', 'break in'],
    letters: {
      a: ['adidas', 'arch support'],
      b: ['brooks'],
      h: ['hoka', 'how to clean'],
      n: ['nike', 'new balance'],
      w: ['women', 'wide'],
    },
  },
  {
    match: /사료/,
    tails: ['로얄캐닌', '쿠팡', '얼마나 줘야 하나요', '성분 보는법', '부작용', '유통기한'],
    extendTails: ['소형견', '퍼피', '노견'],
    howToKo: ['바꾸는 방법', '불리는 방법', '만드는법'],
    versus: ['습식 사료', '고양이 사료'],
    letters: {
      나: ['나이별 추천', '나쁜 성분'],
      바: ['바꾸는 방법', '바꿀때 주의사항'],
      아: ['아침 급여량'],
      하: ['하루 급여량'],
      자: ['자연식 비교', '자동급식기'],
      타: ['타입별 종류'],
      파: ['파우치'],
    },
    questionWordTails: {
      왜: ['왜 안먹어요', '왜 바꿔야 하나요'],
      뭐: ['뭐 먹여야 하나요'],
      얼마: ['얼마나 줘야 하나요', '얼마나 먹어요'],
      어떻게: ['어떻게 바꿔요'],
    },
    questionTails: ['{을} 먹여야 하나요'],
    naverExtra: ['dog food review'],
    googleExtra: ['ドッグフード おすすめ', 'dog food brands'],
  },
  {
    match: /러닝화|운동화|신발/,
    tails: ['쿠팡', '세탁 방법', '세탁하는법', '사이즈', '발볼 넓은'],
    extendTails: ['여성', '남성', '입문용'],
    howToKo: ['세탁 방법', '세탁하는법', '끈 묶는법'],
    versus: ['워킹화', '운동화'],
    questionWordTails: { 어떻게: ['어떻게 세탁해요', '어떻게 끈 묶어요'] },
  },
];

/** Korean particle by the last syllable: `{이}` → 이/가, `{을}` → 을/를 (Latin or digits: 가/를). */
export function withParticle(topic: string, tail: string): string {
  const last = topic.codePointAt(topic.length - 1) ?? 0;
  const hangul = last >= 0xac00 && last <= 0xd7a3;
  const batchim = hangul && (last - 0xac00) % 28 !== 0;
  return tail.replace('{이}', batchim ? '이' : '가').replace('{을}', batchim ? '을' : '를');
}
