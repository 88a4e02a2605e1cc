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
  // Generic acronyms of the trade and units, not anyone's name.
  'ai api apis ceo cto faq html http https json pdf sdk seo url urls usb os ui ux dom cpu cpus gpu ram ssd pc ' +
    'gui hud suv vip 3d 4k hd wifi wi-fi ghz mhz khz mbps gbps kb mb gb tb',
  // HTTP methods, written in capitals in technical answers.
  'get post put patch delete',
  // Time zones.
  'et pt est edt pst pdt cst cdt mst mdt cet cest kst jst bst ist',
  // Contractions of pronouns (it's, here's and let's lose their 's and are stop words already).
  "i'm i'll i've i'd you're you'll you've we're we'll we've they're they'll they've",
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

/**
 * Words after which a full stop does not end the sentence (e.g. Binance; Acme Inc. and Globex): the next word is
 * not taken for the first of a sentence. Single letters (initials, U.S.) are handled by the scan.
 */
export const ABBREVIATIONS: ReadonlySet<string> = new Set(
  'approx co corp dr e.g etc i.e inc jr ltd mr mrs ms no prof sr st vs'.split(' '),
);

/**
 * Places that answers name with capitals: countries, continents, US states and their two-letter codes, large
 * cities, and the adjectives of peoples (American, Korean). A name whose key is one of them is not a brand; written
 * for this project, not complete, and only whole names are dropped, so Air France and Canada Goose stay. Jordan is
 * left out: it is also a brand.
 */
export const PLACES: ReadonlySet<string> = new Set(
  [
    // Continents and regions.
    'africa|america|americas|antarctica|asia|europe|oceania|north america|south america|latin america|' +
      'middle east|southeast asia|east asia|eu|european union',
    // Countries, with their usual short forms.
    'afghanistan|albania|algeria|argentina|armenia|australia|austria|azerbaijan|bangladesh|belarus|belgium|bolivia|' +
      'bosnia|brazil|bulgaria|cambodia|cameroon|canada|chile|china|colombia|costa rica|croatia|cuba|cyprus|czechia|' +
      'czech republic|denmark|dominican republic|ecuador|egypt|estonia|ethiopia|finland|france|georgia|germany|ghana|' +
      'greece|guatemala|hong kong|hungary|iceland|india|indonesia|iran|iraq|ireland|israel|italy|jamaica|japan|' +
      'kazakhstan|kenya|korea|south korea|north korea|kuwait|laos|latvia|lebanon|lithuania|luxembourg|' +
      'malaysia|mexico|mongolia|morocco|myanmar|nepal|netherlands|new zealand|nigeria|norway|pakistan|panama|peru|' +
      'philippines|poland|portugal|qatar|romania|russia|saudi arabia|serbia|singapore|slovakia|slovenia|' +
      'south africa|spain|sri lanka|sweden|switzerland|syria|taiwan|thailand|tunisia|turkey|türkiye|uganda|ukraine|' +
      'united arab emirates|uae|united kingdom|uk|u.k|great britain|britain|england|scotland|wales|united states|' +
      'united states of america|usa|u.s|u.s.a|uruguay|uzbekistan|venezuela|vietnam|viet nam|yemen|zimbabwe',
    // US states and their postal codes (codes that are English words, like OK or IN, are stop words already).
    'alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|hawaii|idaho|illinois|' +
      'indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|mississippi|missouri|' +
      'montana|nebraska|nevada|new hampshire|new jersey|new mexico|new york|north carolina|north dakota|ohio|' +
      'oklahoma|oregon|pennsylvania|rhode island|south carolina|south dakota|tennessee|texas|utah|vermont|virginia|' +
      'washington|west virginia|wisconsin|wyoming|ak|al|ar|az|ca|co|ct|dc|de|fl|ga|hi|ia|id|il|in|ks|ky|la|ma|md|' +
      'me|mi|mn|mo|ms|mt|nc|nd|ne|nh|nj|nm|nv|ny|oh|ok|or|pa|ri|sc|sd|tn|tx|ut|va|vt|wa|wi|wv|wy',
    // Large cities.
    'amsterdam|athens|atlanta|auckland|austin|bangkok|barcelona|beijing|berlin|boston|brisbane|brooklyn|brussels|' +
      'budapest|buenos aires|busan|cairo|canberra|chicago|copenhagen|dallas|delhi|new delhi|denver|dubai|dublin|' +
      'frankfurt|geneva|hanoi|helsinki|ho chi minh city|houston|incheon|istanbul|jakarta|jerusalem|kolkata|' +
      'kuala lumpur|kyoto|la|las vegas|lisbon|london|los angeles|madrid|manchester|manila|melbourne|mexico city|' +
      'miami|milan|montreal|moscow|mumbai|munich|nashville|nyc|osaka|oslo|paris|perth|philadelphia|phoenix|prague|' +
      'rio de janeiro|rome|san diego|san francisco|san jose|santiago|sao paulo|são paulo|seattle|seoul|shanghai|' +
      'shenzhen|stockholm|sydney|taipei|tel aviv|tokyo|toronto|vancouver|vienna|warsaw|zurich',
    // Adjectives and names of peoples.
    'african|american|americans|arab|asian|australian|austrian|belgian|brazilian|british|canadian|chinese|danish|' +
      'dutch|egyptian|english|european|europeans|filipino|finnish|french|german|greek|indian|indonesian|iranian|' +
      'irish|israeli|italian|japanese|korean|latino|mexican|native american|north american|norwegian|pakistani|' +
      'polish|portuguese|russian|saudi|scottish|south korean|spanish|swedish|swiss|taiwanese|thai|turkish|' +
      'ukrainian|vietnamese|welsh',
  ]
    .join('|')
    .split('|'),
);
