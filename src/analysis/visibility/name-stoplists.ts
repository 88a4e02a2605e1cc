import { ENGLISH_STOPWORDS } from '../text/stopwords.js';

/**
 * The words that are capitalised in answers without naming anything (§6.8): written for this project from general
 * knowledge of how answers are worded, no dataset copied. Lower-case; compared with a word's NFKC lower-case form.
 *
 * They are trimmed from both ends of a run of capitalised words ("The North Face" → "North Face", "Jan 1" → "1",
 * which is then no name), so a name made only of them is lost (Best Buy, Top Gear): a known cost, see §6.8.
 */
const NOT_NAMES = [
  // Sentence openers and connectives that a capital only marks as first in the sentence.
  'also additionally alternatively although another because besides both but certainly consequently currently ' +
    'each either especially every finally firstly first furthermore generally hence here however ideally ' +
    'importantly indeed instead likewise many meanwhile moreover most namely nevertheless next nonetheless notably ' +
    'now often otherwise overall perhaps please recently regardless second secondly similarly since so some ' +
    'still subsequently then therefore third though thus today tomorrow typically ultimately unfortunately unless ' +
    'unlike while yes yesterday',
  // Imperatives that open list items and advice ("Consider …", "Check …").
  'avoid buy check choose compare consider look note read see try use visit',
  // Section words of answers and their list heads.
  'benefits best bottom cons conclusion considerations disclaimer example examples faq features final highlights ' +
    'introduction key line notes option options overview pick picks pricing pros rating ratings recommendation ' +
    'recommendations references review reviews source sources step steps summary tip tips top verdict why',
  // Days, months and their usual abbreviations.
  'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august ' +
    'september october november december jan feb mar apr jun jul aug sep sept oct nov dec',
  // Titles and units written in capitals.
  'mr mrs ms dr st am pm gmt utc usd eur gbp jpy krw ok',
  // Generic acronyms of the trade, not anyone's name.
  'ai api ceo cto faq html http https json pdf sdk seo url usb',
].join(' ');

export const NAME_STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_STOPWORDS, ...NOT_NAMES.split(' ')]);

/**
 * Korean words that head list items and bold spans without naming a brand (장점: …, **가격**): a head holding one
 * of them is not a name. Written for this project; the list is short on purpose and misses other headings (§6.8).
 */
export const KOREAN_NOT_NAMES: ReadonlySet<string> = new Set(
  (
    '가격 가이드 결론 구매 기능 기준 기타 단점 답변 디자인 리뷰 무게 문의 방법 배송 비교 비용 사용 사이즈 선택 ' +
    '성능 소개 순위 예산 예시 요금 요금제 요약 용도 위치 이유 장단점 장점 정리 제품 종류 주의 주의사항 ' +
    '질문 차이 차이점 착용감 참고 총평 추천 출처 특징 팁 평가 할인 혜택 효과 후기'
  ).split(' '),
);

/** Last syllables of a Korean sentence or clause (…다, …요, …까, …함): a head ending so is a sentence, not a name. */
export const KOREAN_SENTENCE_ENDS: ReadonlySet<string> = new Set(['다', '요', '죠', '까', '함', '됨', '음', '임']);
