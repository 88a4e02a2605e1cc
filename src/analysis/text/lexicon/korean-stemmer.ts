import { compose, finalOf, initialOf, isSyllable, L, T, V, vowelOf, withFinal } from './hangul.js';
import { HA_NOUNS, PREDICATE_LAST, PREDICATES, U_VERBS, WHOLE } from './korean-stem-tables.js';

/**
 * Korean lemmatiser: strips particles, the copula and verb/adjective endings from one word (eojeol).
 *
 * Why our own: checked on the registry (2026-08). kiwi-nlp 0.23.0 is LGPL-2.1 WASM whose model files are not in the
 * npm package (downloaded separately; tens of MB in memory per process). kuromoji-ko 1.0.8 has one release, one
 * maintainer and a 28 MB packed mecab-ko-dic that it loads into the heap. mecab-ko and mecab-ya need a native mecab
 * binary. es-hangul 2.4.0 (MIT) has jamo helpers only, and the few we need are arithmetic (hangul.ts). So no
 * dependency: the rules below are enough for lexical matching, where both sides go through the same function.
 *
 * Rules, applied up to MAX_PASSES times, longest suffix first (at most 5 syllables are looked at):
 * - Particles, compound particles and the copula (에서는, 으로는, 이라는, 처럼, 입니다, 이었다, 였다 ...) are removed
 *   when at least one syllable remains; one-syllable particles (은, 이, 가, 의, 도 ...) need two remaining syllables
 *   (회의, 나이, 증가 stay whole), except 는/를, which are never the last syllable of a two-syllable noun we care about.
 * - Safe endings that only verbs carry (습니다, 었다, 았다, 는다, 으면, 어서, 지만, 도록 ...) are removed always.
 * - Ambiguous one-syllable endings (다, 고, 며, 면, 서, 지, 기, 음, 게, 던, 은, 을, 어, 아, 요 ...) and the jamo
 *   endings -ㄴ/-ㄹ/-ㅁ (adnominal, future, nominaliser) are removed only when what remains looks like a predicate
 *   stem: it is in PREDICATES, ends in a past-tense ㅆ, or (two or more syllables) ends in a syllable typical of verb
 *   stems (하, 되, 리, 르, 히, 이, 지 ...). -ㄴ다 and -ㅂ니다 are removed always (간다→가, 갑니다→가).
 * - After a verbal ending, contractions are undone: 했→하, 됐→되, 갔→가, 왔→오, 줬→주, 켰→키, 썼→쓰, 였→(copula),
 *   었/았/겠→(dropped); 르-irregular 올랐→오르, 몰라→모르; ㅂ-irregular 어려운/어려워→어렵 (not 배우/싸우/세우 ...,
 *   listed in U_VERBS); ㄹ-drop 만든/만듭니다/파는→만들/팔 when the ㄹ stem is a listed predicate.
 * - Finally 하/되 (and 하시/되시, 스럽) are removed from noun+하다 verbs: 만족했다→만족, 증가된→증가, 만족스러운→만족.
 * - WHOLE lists irregular or ambiguous whole words (없이→없, 갈→가, 사고 stays 사고) and is checked after each pass.
 * At least one syllable is always kept. Limits: no dictionary, so nouns ending in an ending-like syllable can be cut
 * (전문가→전문, 어린이→어린) and homographs are not told apart (산 mountain vs 사다; 들 enter vs 듣다 hear); ㄷ/ㅅ/ㅎ
 * irregulars are covered only through WHOLE. Both sides of a comparison are cut the same way, which is what matters.
 * The word lists (PREDICATES, U_VERBS, PREDICATE_LAST, WHOLE, HA_NOUNS) are in korean-stem-tables.ts.
 */

interface Rule {
  /** Text that replaces the suffix (usually ''). */
  rep: string;
  /** Syllables that must remain before the suffix. */
  min: number;
  /** Only when the remainder looks like a predicate stem. */
  pred: boolean;
  /** The suffix is a verbal ending: undo contractions in the remainder. */
  verbal: boolean;
  /** The remainder must end in a closed (final consonant) or open syllable. */
  after?: 'closed' | 'open';
}

const RULES = new Map<string, Rule[]>();
function add(suffixes: string, rule: Rule): void {
  for (const s of suffixes.split(/\s+/)) {
    if (s === '') continue;
    const list = RULES.get(s) ?? [];
    list.push(rule);
    RULES.set(s, list);
  }
}

// Compound and multi-syllable particles; copula forms.
add(
  `에서는 에서도 에서의 에서부터 에서만 에게는 에게도 에게서 에게만 한테는 한테서 께서는 으로는 으로도 으로서 으로써
   으로부터 로부터 으로만 까지는 까지도 까지의 까지만 부터는 부터도 이라는 이라고 이라도 이라면 이라서 라는 라고 라도
   이나 이나마 이랑 처럼 처럼은 만큼 만큼은 대로 밖에 마다 하고 에서 에게 한테 께서 으로 까지 부터 보다 보다는 조차
   마저 이란 에는 에도 에만 와는 과는 와도 과도 와의 과의 로는 로서 로써 로도 로만 만은 만을 만이 만의 만으로 이든
   이든지 든지 이야 뿐 뿐이다 뿐만 이며 이고 이다 입니다 입니까 이었다 이었습니다 였습니다 였다 인데 이지만 이었고
   였고 이었던 였던 이므로 이니까 이어서 이에요 예요 이었어요 였어요 이죠 이지 이었으며 였으며 이라며 라며`,
  { rep: '', min: 1, pred: false, verbal: false },
);
// Copula nominal 임 needs two remaining syllables (책임 stays). Adnominal 인 is left alone: 디자인, 온라인, 확인.
add('임', { rep: '', min: 2, pred: false, verbal: false });
// Endings only verbs and adjectives carry.
add(
  `습니다 습니까 습니다만 었다 았다 였다 었던 았던 였던 었고 았고 였고 었으며 았으며 였으며 었지만 았지만 였지만
   었는데 았는데 였는데 었을 았을 였을 었어요 았어요 였어요 었어 았어 었음 았음 었으나 았으나 었기 았기 었다가 았다가
   었다고 았다고 였다고 었다는 았다는 었던 는다 는다고 는다면 는다는 는데 는데요 는지 는가 으며 으면 으면서 으니
   으니까 으므로 으나 으려고 으려면 으러 지만 어서 아서 어도 아도 어야 아야 어요 아요 어라 아라 도록 겠다 겠습니다
   겠고 겠지만 겠어요 은지 을지 을까 을수록 면서 려고 려면 으세요 세요 십시오 으십시오 으셨다 셨다 셨습니다 셨던
   네요 군요 는군요 구나 거나 거든 더라 더니 잖아 잖아요 지요 어지 아지 았었다 었었다 고요 다면서 답니다 습니다요`,
  { rep: '', min: 1, pred: false, verbal: true },
);
// 해/돼 contractions of 하여/되어 at the end of a word.
add('해 해서 해도 해야 해요 해라 해야만 하여 하여서 하여야 하여도', { rep: '하', min: 1, pred: false, verbal: false });
add('돼 돼서 돼도 돼야 돼요 되어 되어서 되어야 되어도', { rep: '되', min: 1, pred: false, verbal: false });
// ㅂ-irregular connective 어려워 → 어려우 (→ 어렵 in restore).
add('워 워서 워도 워야 워요 워지', { rep: '우', min: 1, pred: false, verbal: true });
// One-syllable particles.
add('은 이 가 을 의 에 께 로 와 과 도 만 나 랑 란', { rep: '', min: 2, pred: false, verbal: false });
add('는 를', { rep: '', min: 1, pred: false, verbal: false });
// After a one-syllable noun, only the particle form that fits its last sound: 것이, 돈은, 물을 / 차가.
add('이 은 을', { rep: '', min: 1, pred: false, verbal: false, after: 'closed' });
add('가', { rep: '', min: 1, pred: false, verbal: false, after: 'open' });
// Ambiguous endings: only after a predicate-like stem.
add('다 고 며 면 서 지 기 음 게 던 은 을 어 아 니 네 냐 요 죠 든 다는 다고 다면 다가 으면 는', {
  rep: '',
  min: 1,
  pred: true,
  verbal: true,
});
// Plural 들 (사람들 → 사람); predicate stems ending in 들 (만들, 줄어들) are returned before the rules run.
add('들', { rep: '', min: 2, pred: false, verbal: false });
// Copula dropped after a vowel (사과다, 사과고) when the rules above did not take the ending.
add('다 고', { rep: '', min: 2, pred: false, verbal: false });
// Adverbs in -히 from 하다 adjectives: 정확히 → 정확.
add('히', { rep: '', min: 2, pred: false, verbal: false });

const MAX_PASSES = 5;

const SYL_HA = '하';
const YEOT = '였'.charCodeAt(0);
const SYL_DOE = '되';

function lastCode(s: string): number {
  return s.charCodeAt(s.length - 1);
}

function looksPredicate(stem: string): boolean {
  if (stem === '') return false;
  if (PREDICATES.has(stem)) return true;
  const fixed = WHOLE.get(stem);
  if (fixed !== undefined) return PREDICATES.has(fixed);
  const last = lastCode(stem);
  if (!isSyllable(last)) return false;
  if (finalOf(last) === T.ss) return true;
  if (stem.length < 2) return false;
  const prev = stem.charCodeAt(stem.length - 2);
  // 르-irregular connective: 빨라, 불러.
  const lv = vowelOf(last);
  if (initialOf(last) === L.r && (lv === V.a || lv === V.eo) && isSyllable(prev) && finalOf(prev) === T.l) return true;
  const ch = stem[stem.length - 1] ?? '';
  if (ch === '우') {
    // ㅂ-irregular (어려우) needs an open previous syllable; 행운 → 행우 must not pass.
    return finalOf(prev) === T.none;
  }
  return PREDICATE_LAST.has(ch);
}

/**
 * Undoes a contraction or pre-final ending in the last syllable of a stem left by a verbal ending. Vowel changes
 * (했→하, 왔→오, 켰→키, 썼→쓰) apply only after a past-tense ㅆ was removed, so 소녀다 or 사과고 stay intact.
 */
function restore(stem: string, afterSs = false): string {
  const n = stem.length;
  if (n === 0) return stem;
  const code = stem.charCodeAt(n - 1);
  if (!isSyllable(code)) return stem;
  const fin = finalOf(code);
  const init = initialOf(code);
  const vow = vowelOf(code);
  const head = stem.slice(0, -1);
  const prev = n >= 2 ? stem.charCodeAt(n - 2) : 0;
  if (fin === T.ss) {
    if (init === L.ng && vow === V.yeo && n >= 2 && finalOf(prev) !== T.none) return `${head}이`; // 높였 → 높이
    if (init === L.ng && (vow === V.yeo || vow === V.eo || vow === V.a) && n >= 2) return restore(head);
    if (init === L.g && vow === V.e && n >= 2) return restore(head); // 겠
    if (init === L.ng && vow === V.i) return stem; // 있
    return restore(head + withFinal(code, T.none), true);
  }
  if (fin !== T.none) return stem;
  // 르-irregular: 올라/올랐 → 오르, 불러 → 부르.
  if (init === L.r && (vow === V.a || vow === V.eo) && prev !== 0 && isSyllable(prev) && finalOf(prev) === T.l) {
    return `${stem.slice(0, -2)}${withFinal(prev, T.none)}르`;
  }
  // ㅂ-irregular: 어려워/어려우 → 어렵, 도와 → 돕; 배우/싸우 stay.
  if (init === L.ng && (vow === V.wo || vow === V.u || (vow === V.wa && (head === '도' || head === '고')))) {
    if (prev !== 0 && isSyllable(prev) && finalOf(prev) === T.none) {
      if (U_VERBS.has(`${head.slice(-1)}우`) || U_VERBS.has(`${head}우`)) return `${head}우`;
      return head.slice(0, -1) + withFinal(prev, T.b);
    }
    return vow === V.wo ? `${head}우` : stem;
  }
  if (!afterSs) return stem;
  switch (vow) {
    case V.wa:
      return head + compose(init, V.o, T.none);
    case V.wo:
      return head + compose(init, V.u, T.none);
    case V.wae:
      return head + compose(init, V.oe, T.none);
    case V.yeo:
      return init === L.ng ? head || '이' : head + compose(init, V.i, T.none);
    case V.ae:
      return init === L.h ? `${head}하` : stem;
    case V.eo:
      return init === L.gg || init === L.dd || init === L.ss || init === L.k || init === L.t || init === L.bb
        ? head + compose(init, V.eu, T.none)
        : stem;
    case V.a:
      return (init === L.bb || init === L.p) && n >= 2 ? head + compose(init, V.eu, T.none) : stem;
    default:
      return stem;
  }
}

/** The stem with a dropped ㄹ put back when only that form is a listed predicate (만드 → 만들, 파 → 팔). */
function restoreL(stem: string): string {
  if (stem === '' || PREDICATES.has(stem)) return stem;
  const code = lastCode(stem);
  if (!isSyllable(code) || finalOf(code) !== T.none) return stem;
  const withL = stem.slice(0, -1) + withFinal(code, T.l);
  return PREDICATES.has(withL) ? withL : stem;
}

/** Last syllables after which a word-final -ㄴ/-ㄹ is an ending (빠른, 예쁜, 기다린, 어려운 via 우). */
const ADNOMINAL_LAST: ReadonlySet<string> = new Set(['하', '되', '르', '쁘', '프', '리', '싸', '우', '이']);

/** Suffixes grouped by their last syllable, longest first, so a word is compared only with those that can match. */
const BY_LAST = new Map<string, Array<readonly [string, Rule[]]>>();
for (const [suffix, rules] of RULES) {
  const key = suffix.slice(-1);
  const list = BY_LAST.get(key) ?? [];
  list.push([suffix, rules]);
  BY_LAST.set(key, list);
}
for (const list of BY_LAST.values()) list.sort((a, b) => b[0].length - a[0].length);

function tryRules(s: string, minLen: number): string | undefined {
  const n = s.length;
  const candidates = BY_LAST.get(s[n - 1] ?? '');
  if (candidates === undefined) return undefined;
  for (const [suffix, rules] of candidates) {
    const k = suffix.length;
    if (k < minLen || k >= n || !s.endsWith(suffix)) continue;
    const stem = s.slice(0, n - k);
    for (const r of rules) {
      if (stem.length < r.min) continue;
      if (r.after !== undefined && (finalOf(lastCode(stem)) === T.none) !== (r.after === 'open')) continue;
      const fixed = WHOLE.get(stem);
      if (fixed !== undefined && r.rep === '') return fixed;
      if (r.pred && !looksPredicate(stem) && restoreL(stem) === stem) continue;
      // 였 after a closed syllable is 이+었 of a causative or passive stem: 높였다 → 높이.
      if (s.charCodeAt(n - k) === YEOT && finalOf(lastCode(stem)) !== T.none) return `${stem}이`;
      const out = r.verbal ? restore(stem + r.rep) : stem + r.rep;
      return out === '' ? s : out;
    }
  }
  return undefined;
}

/** Word-final -ㄴ/-ㄹ/-ㅁ (adnominal, future, nominaliser) after a predicate stem; ㄹ-stems (만들, 늘) keep theirs. */
function stripJamoFinal(s: string): string | undefined {
  const n = s.length;
  const last = s.charCodeAt(n - 1);
  if (n < 2 || !isSyllable(last) || PREDICATES.has(s)) return undefined;
  const fin = finalOf(last);
  if (fin !== T.n && fin !== T.l && fin !== T.m) return undefined;
  const stem = s.slice(0, n - 1) + withFinal(last, T.none);
  if (PREDICATES.has(stem)) return stem;
  const fixed = WHOLE.get(stem);
  if (fixed !== undefined && PREDICATES.has(fixed)) return fixed; // 높일 → 높이 → 높
  const ch = stem[n - 1] ?? '';
  if (ch === '하' || ch === '되') {
    // 포함, 제한, 역할 are nouns: a one-syllable head needs a listed 하 adjective (강한 → 강하).
    return n >= 3 ? stem : undefined;
  }
  if (fin === T.m) return undefined; // 이름, 여름, 그림: nouns too often.
  if (ADNOMINAL_LAST.has(ch) && (ch !== '이' || PREDICATES.has(stem)) && looksPredicate(stem)) return restore(stem);
  const l = restoreL(stem);
  return l !== stem ? l : undefined;
}

function stripOnce(s: string): string {
  const n = s.length;
  const long = tryRules(s, 2);
  if (long !== undefined) return long;
  if (n < 2) return s;
  const prev = s.charCodeAt(n - 2);
  // -ㄴ다 (간다 → 가) and -ㅂ니다/-ㅂ니까/-ㅂ시다 (갑니다 → 가).
  if (s[n - 1] === '다' && isSyllable(prev) && finalOf(prev) === T.n) {
    return restoreL(s.slice(0, n - 2) + withFinal(prev, T.none));
  }
  if (n >= 3 && (s.endsWith('니다') || s.endsWith('니까') || s.endsWith('시다'))) {
    const p = s.charCodeAt(n - 3);
    if (isSyllable(p) && finalOf(p) === T.b) return restoreL(s.slice(0, n - 3) + withFinal(p, T.none));
  }
  // -ㄹ까/-ㄹ게/-ㄹ지/-ㄹ래 after a predicate: 할까 → 하.
  const tail = s[n - 1];
  if ((tail === '까' || tail === '게' || tail === '지' || tail === '래') && isSyllable(prev) && finalOf(prev) === T.l) {
    const stem = s.slice(0, n - 2) + withFinal(prev, T.none);
    if (!PREDICATES.has(s.slice(0, n - 1)) && (looksPredicate(stem) || stem.length === 1)) return stem;
  }
  const short = tryRules(s, 1);
  if (short !== undefined) return short;
  return stripJamoFinal(s) ?? s;
}

function finish(s: string): string {
  let w = s;
  if (w.length >= 3 && w.endsWith('스럽')) w = w.slice(0, -2);
  if (w.length >= 3 && (w.endsWith('하시') || w.endsWith('되시'))) w = w.slice(0, -1);
  const keep = HA_NOUNS.has(w) || PREDICATES.has(w);
  if (w.length >= 2 && (w.endsWith(SYL_HA) || w.endsWith(SYL_DOE)) && !keep) w = w.slice(0, -1);
  return w;
}

/** Lemma of one Korean word (already lower-cased, trimmed of punctuation, non-empty). */
export function lemmaKorean(word: string): string {
  const fixed = WHOLE.get(word);
  if (fixed !== undefined) return fixed;
  if (PREDICATES.has(word)) return word;
  let s = word;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    if (pass > 0 && PREDICATES.has(s)) break;
    const next = stripOnce(s);
    if (next === s) break;
    s = next;
    const w = WHOLE.get(s);
    if (w !== undefined) return w;
  }
  if (s !== word) s = restoreL(s);
  const out = finish(s);
  return out === '' ? word : out;
}
