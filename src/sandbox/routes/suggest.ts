import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';

/**
 * Google autocomplete (docs/analysis.md#s3-1, docs/engines.md#google-autocomplete): `GET /complete/search` with
 * `client=firefox` (`[q, [s…], [], {…}]`), `client=chrome` (adds descriptions, suggest types and
 * relevance) and `client=gws-wiz` (`)]}'` + arrays with `<b>` markup). Completions are generated
 * deterministically from the typed prefix with small word lists, in popularity order, including a
 * few navigational and wrong-script ones so the filters have work to do. `sandbox:captcha` answers
 * the 429 sorry page, `sandbox:empty` an empty list.
 */

type Lang = 'en' | 'ko';
export type SuggestProvider = 'google' | 'naver';

const HANGUL = /\p{Script=Hangul}/u;

// Tails in popularity order: the first ones are what most people typed after the prefix.
const EN_TAILS = [
  'for women',
  'for men',
  'for flat feet',
  'vs walking shoes',
  'review',
  'near me',
  'on sale',
  'nike',
  'price',
  'for beginners',
  'with arch support',
  'amazon.com',
  'brands',
  'worth it',
  'alternatives',
  'meaning',
  'size chart',
  'how to choose',
  'for kids',
  'cost',
];
const EN_EXTEND_TAILS = ['nike', 'adidas', 'for beginners', 'for women', 'for men', '2025', 'reddit', 'hoka'];
const EN_QUESTION_TAILS: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/^what\b/i, ['made of', 'the best brand', 'drop', 'used for', 'good for']],
  [/^how\b/i, ['clean', 'choose', 'last', 'fit', 'break in']],
  [/^why\b/i, ['hurt', 'are expensive', 'squeak', 'wear out']],
  [/^(is|are|can)\b/i, ['good for walking', 'good for hiking', 'worth it', 'bad for your feet', 'good for gym']],
  [/^(which|who|when|where)\b/i, ['to buy', 'are best', 'makes the best', 'to replace']],
];
const EN_LETTERS: Readonly<Record<string, readonly string[]>> = {
  a: ['adidas', 'amazon', 'arch support'],
  b: ['brooks', 'black', 'best brands'],
  c: ['cheap', 'comparison', 'clearance'],
  d: ['deals', 'difference'],
  e: ['everyday use'],
  f: ['for women', 'for men', 'for flat feet'],
  g: ['guide', 'gel'],
  h: ['hoka', 'how to clean'],
  i: ['insoles'],
  j: ['jogging'],
  k: ['kids'],
  l: ['lightweight', 'lifespan'],
  m: ['mens', 'marathon'],
  n: ['near me', 'nike', 'new balance'],
  o: ['on sale', 'outlet'],
  p: ['price', 'pronation'],
  q: ['quality'],
  r: ['review', 'reddit'],
  s: ['sale', 'size chart', 'stability'],
  t: ['trail', 'top rated'],
  u: ['under 100'],
  v: ['vs walking shoes', 'vs sneakers'],
  w: ['women', 'with arch support', 'wide'],
  x: [],
  y: [],
  z: ['zero drop'],
};
const EN_WRONG_SCRIPT = ['추천', 'おすすめ'];

const KO_TAILS = [
  '추천',
  '비교',
  '순위',
  '추천 2025',
  '추천 2024',
  '가격',
  '후기',
  '쿠팡',
  '종류',
  '브랜드',
  '로얄캐닌',
  '얼마나 줘야 하나요',
  '성분 보는법',
  '부작용',
  '유통기한',
  'shop.example.co.kr',
  '가성비',
  '어떤게 좋을까',
];
const KO_EXTEND_TAILS = ['소형견', '퍼피', '노견', '2025', '디시', '더쿠', '순위', '가성비'];
const KO_QUESTION_WORD_TAILS: Readonly<Record<string, readonly string[]>> = {
  어디: ['어디서 사요', '어디가 싸요', '어디서 사나요'],
  왜: ['왜 안먹어요', '왜 비싼가요', '왜 바꿔야 하나요'],
  뭐: ['뭐가 좋아요', '뭐 먹여야 하나요', '뭐가 다른가요'],
  얼마: ['얼마나 줘야 하나요', '얼마나 먹어요', '얼마예요'],
  어떻게: ['어떻게 바꿔요', '어떻게 보관하나요', '어떻게 골라요'],
};
const KO_QUESTION_TAILS = ['가 좋을까', '를 골라야 할까', '를 먹여야 하나요', '가 좋은가요'];
const KO_SYLLABLES: Readonly<Record<string, readonly string[]>> = {
  가: ['가격', '가성비', '가격 비교'],
  나: ['나이별 추천', '나쁜 성분'],
  다: ['다이어트', '다른 브랜드 비교'],
  라: ['라벨 보는법'],
  마: ['마트 추천'],
  바: ['바꾸는 방법', '바꿀때 주의사항'],
  사: ['사료량', '사은품'],
  아: ['아기 강아지 추천', '아침 급여량'],
  자: ['자연식 비교', '자동급식기'],
  차: ['차이', '차이점'],
  카: ['카길 후기'],
  타: ['타입별 종류'],
  파: ['파는곳', '파우치'],
  하: ['하루 급여량', '하는법'],
};
const KO_INTENT_END =
  /(추천|비교|차이|방법|하는법|뜻|가격|비용|후기|리뷰|순위|장단점|종류|효과|부작용|가성비|브랜드|vs|\d)$/;

function keep(sim: SimContext, q: string, tail: string): boolean {
  return sim.hash(`${q}\u0000${tail}`, 'suggest') % 10 < 7;
}

/** Adds `q + sep + tail` for the kept tails that the prefix does not already contain. */
function extend(out: string[], sim: SimContext, q: string, tails: readonly string[], sep = ' '): void {
  for (const t of tails) if (!q.includes(t.split(' ')[0] ?? t) && keep(sim, q, t)) out.push(`${q}${sep}${t}`);
}

/** Deterministic completions of a typed prefix (up to 10), most popular first. */
export function sandboxSuggestions(sim: SimContext, prefix: string, lang: Lang, provider: SuggestProvider): string[] {
  const q = prefix.replace(/\s+/g, ' ').trim();
  if (!q) return [];
  const words = q.split(' ');
  const last = words[words.length - 1] ?? '';
  const base = words.slice(0, -1).join(' ');
  const out: string[] = [];
  if (lang === 'ko') {
    const questionWord = KO_QUESTION_WORD_TAILS[last];
    if (words.length > 1 && [...last].length === 1 && KO_SYLLABLES[last]) {
      for (const w of KO_SYLLABLES[last] ?? []) out.push(`${base} ${w}`);
    } else if (words.length > 1 && questionWord) {
      for (const t of questionWord) out.push(`${base} ${t}`);
    } else if (/^(어떤|왜)\s/.test(q)) {
      extend(out, sim, q, KO_QUESTION_TAILS, '');
    } else if (KO_INTENT_END.test(q)) {
      extend(out, sim, q, /\d/.test(q) ? KO_EXTEND_TAILS.filter((t) => !/\d/.test(t)) : KO_EXTEND_TAILS);
    } else {
      extend(out, sim, q, KO_TAILS);
      // People also type the topic without spaces: a spacing variant of the top completion.
      if (q.includes(' ')) out.splice(1, 0, `${q.replace(/\s+/g, '')} ${KO_TAILS[0]}`);
      if (provider === 'naver') out.splice(6, 0, 'dog food review');
      if (provider === 'google') out.splice(4, 0, 'ドッグフード おすすめ', 'dog food brands');
    }
  } else {
    const questionTails = EN_QUESTION_TAILS.find(([re]) => re.test(q))?.[1];
    if (words.length > 1 && /^[a-z]$/i.test(last)) {
      for (const w of EN_LETTERS[last.toLowerCase()] ?? []) out.push(`${base} ${w}`);
    } else if (questionTails) {
      extend(out, sim, q, questionTails);
    } else if (/\b(vs|versus|or|for|with|without|review|price|cost|alternatives|worth it|near me|\d+)$/i.test(q)) {
      extend(out, sim, q, /\d$/.test(q) ? EN_EXTEND_TAILS.filter((t) => !/\d/.test(t)) : EN_EXTEND_TAILS);
    } else {
      extend(out, sim, q, EN_TAILS);
      if (!/^best\b/i.test(q)) out.splice(2, 0, `best ${q} 2025`, `best ${q} 2024`);
      if (sim.hash(q, 'foreign') % 2 === 0) out.splice(5, 0, `${q} ${EN_WRONG_SCRIPT[sim.hash(q, 'which') % 2]}`);
    }
  }
  return [...new Set(out)].filter((s) => s.toLowerCase() !== q.toLowerCase()).slice(0, 10);
}

export function suggestLanguage(hl: string | undefined, q: string): Lang {
  return hl === 'ko' || HANGUL.test(q) ? 'ko' : 'en';
}

const isDomainLike = (s: string) => /\.(com|net|co\.kr|org)\b|www\./i.test(s);
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** gws-wiz marks the completed part in bold. */
function bolded(q: string, s: string): string {
  return s.toLowerCase().startsWith(q.toLowerCase())
    ? `${escapeHtml(s.slice(0, q.length))}<b>${escapeHtml(s.slice(q.length))}</b>`
    : `<b>${escapeHtml(s)}</b>`;
}

function sorryPage(q: string): string {
  const cont = `https://www.google.com/complete/search?q=${encodeURIComponent(q)}`;
  return (
    `<html><head><title>${escapeHtml(cont)}</title></head><body><div style="max-width:400px">
<form id="captcha-form" action="index" method="post">` +
    `<div class="g-recaptcha" data-sitekey="sandbox" data-s="sandbox"></div>
<input type="hidden" name="continue" value="${escapeHtml(cont)}"></form>
<div>Our systems have detected unusual traffic from your computer network. This ` +
    `page checks to see if it's really you sending the requests, and not a robot.</div>
<div>IP address: 203.0.113.7<br>Time: 2026-07-01T10:00:00Z<br>URL: ${escapeHtml(cont)}</div></div></body></html>`
  );
}

const error5xx = (reply: FastifyReply) =>
  reply
    .code(503)
    .type('text/html; charset=UTF-8')
    .send('<html><head><title>Error 503 (Server Error)</title></head><body><p>503. That’s an error.</p></body></html>');

export function registerGoogleSuggest(app: FastifyInstance, sim: SimContext): void {
  app.get('/complete/search', async (req, reply) => {
    const params = req.query as Record<string, string | undefined>;
    const q = params.q ?? '';
    const client = params.client ?? 'firefox';
    const d = await sim.gate('google-suggest', q, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return reply.code(429).type('text/html; charset=UTF-8').send(sorryPage(q));
    const list = d.empty ? [] : sandboxSuggestions(sim, sim.clean(q), suggestLanguage(params.hl, q), 'google');
    if (client === 'gws-wiz') {
      const body = [
        list.map((s) => [bolded(q, s), 0, [512, 433]]),
        { ag: { a: { 8: ['Related searches'] } }, i: q, q: sim.hash(q).toString(36), t: { bpc: false, tlw: false } },
      ];
      return reply.type('application/json; charset=UTF-8').send(`)]}'\n${JSON.stringify(body)}`);
    }
    if (client === 'chrome') {
      const types = list.map((s) => (isDomainLike(s) ? 'NAVIGATION' : 'QUERY'));
      const meta = {
        'google:clientdata': { bpc: false, tlw: false },
        'google:suggestrelevance': list.map((_, i) => 1250 - i * 50),
        'google:suggestsubtypes': list.map(() => [512, 433]),
        'google:suggesttype': types,
        'google:verbatimrelevance': 1300,
      };
      return reply.type('text/javascript; charset=UTF-8').send(JSON.stringify([q, list, list.map(() => ''), [], meta]));
    }
    return reply
      .type('text/javascript; charset=UTF-8')
      .send(JSON.stringify([q, list, [], { 'google:suggestsubtypes': list.map(() => [512]) }]));
  });
}
