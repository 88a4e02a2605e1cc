import { EN_LEXICAL_NEGATIVES } from './english-tables.js';
import { KO_LEXICAL_NEGATIVES } from './korean-tables.js';
import { lemmaKorean } from './korean-stemmer.js';

/**
 * Negation cues of one clause. Words are the clause split on whitespace; `index` is the word the cue scopes over:
 * - cues placed before what they negate (English not/never/no/without, n't, fail to, lack; Korean 안, 못) point at
 *   the next word (the cue's own word when it is last, or when the cue is attached: 안갔다, 못했다);
 * - Korean cues placed after (-지 않다, -지 못하다, -지 말다, 없다, 아니다) point at the word before them, or at their
 *   own word when attached to it (불편함없이, 가지않았다);
 * - lexical negatives (불가능, 비과세, 무료, 미완성; impossible, unable) point at their own word, kind 'lexical'.
 */

export interface NegationCue {
  index: number;
  cue: string;
  kind: 'syntactic' | 'lexical';
}

function set(words: string): ReadonlySet<string> {
  return new Set(words.split(/\s+/).filter((w) => w !== ''));
}

// The trailing run is matched only from its first character (the lookbehind): one scan, not one per position.
const EDGE = /^[^\p{L}\p{N}]+|(?<![^\p{L}\p{N}])[^\p{L}\p{N}]+$/gu;
function clean(word: string): string {
  return word.replace(EDGE, '').toLowerCase().replace(/’/g, "'");
}

function splitWords(clause: string): string[] {
  const t = clause.trim();
  return t === '' ? [] : t.split(/\s+/);
}

const EN_BEFORE = set('not no never none nobody nothing neither nor without cannot nowhere');
const EN_NT_INFORMAL = set(
  'dont didnt doesnt isnt wasnt arent werent cant couldnt shouldnt wouldnt hasnt havent hadnt mustnt neednt aint',
);
const EN_FAIL = set('fail fails failed failing');
const EN_LACK = set('lack lacks lacked lacking');
const EN_LEXICAL = set(EN_LEXICAL_NEGATIVES);
const EN_PREFIXES = ['non-', 'non', 'dis', 'un', 'im', 'in', 'il', 'ir'];

export function negationCuesEnglish(clause: string): NegationCue[] {
  const words = splitWords(clause).map(clean);
  const out: NegationCue[] = [];
  const next = (i: number, by = 1): number => (i + by < words.length ? i + by : i);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === '') continue;
    if (EN_BEFORE.has(w)) {
      if (w === 'not' && words[i + 1] === 'only') continue; // "not only ... but also" adds, it does not negate
      out.push({ index: next(i), cue: w, kind: 'syntactic' });
    } else if (w.endsWith("n't") || EN_NT_INFORMAL.has(w)) {
      out.push({ index: next(i), cue: "n't", kind: 'syntactic' });
    } else if (EN_FAIL.has(w) && words[i + 1] === 'to') {
      out.push({ index: next(i, 2), cue: 'fail to', kind: 'syntactic' });
    } else if (EN_LACK.has(w)) {
      out.push({ index: next(i), cue: w, kind: 'syntactic' });
    } else if (EN_LEXICAL.has(w)) {
      const prefix = EN_PREFIXES.find((p) => w.startsWith(p)) ?? w;
      out.push({ index: i, cue: prefix, kind: 'lexical' });
    }
  }
  return out;
}

const KO_LEXICAL = set(KO_LEXICAL_NEGATIVES);
/** Two-syllable starts of words with 안/못 written attached to the verb (안갔다, 못했다); 안내, 안전, 못생긴 are not. */
const KO_AN_ATTACHED = set(
  '안되 안돼 안됐 안됨 안하 안해 안했 안함 안좋 안맞 안가 안갔 안와 안왔 안나 안났 안먹 안봐 안보 안봤 안들 안써 안쓰 안썼 안줘 안받 안팔 안사 안샀 안열 안움',
);
const KO_MOT_ATTACHED = set(
  '못하 못해 못했 못함 못한 못할 못가 못갔 못먹 못봤 못보 못받 못쓰 못썼 못와 못왔 못들 못찾 못샀 못사 못믿 못간 못본 못알',
);
/** Word endings left on a previous word before 않다/못하다/말다 (가지, 좋지는, 쉽지도). */
const JI_ENDINGS = ['지', '지는', '지도', '지를', '지가', '지만은'];

function endsWithJi(word: string | undefined): boolean {
  return word !== undefined && JI_ENDINGS.some((e) => word.endsWith(e) && word.length > e.length);
}

/** The part of a word from 없 on when 없 is the predicate (없다, 문제없이), not 없애다 (to remove). */
function eopsForm(w: string): { at: number; form: string } | undefined {
  const at = w.indexOf('없');
  if (at < 0 || w.startsWith('없애', at)) return undefined;
  return { at, form: w.slice(at) };
}

function lexicalKorean(w: string): string | undefined {
  if (KO_LEXICAL.has(w)) return w;
  const l = lemmaKorean(w);
  if (KO_LEXICAL.has(l)) return l;
  for (let len = Math.min(5, w.length); len >= 2; len--) {
    const head = w.slice(0, len);
    if (KO_LEXICAL.has(head)) return head;
  }
  return undefined;
}

export function negationCuesKorean(clause: string): NegationCue[] {
  const words = splitWords(clause).map(clean);
  const out: NegationCue[] = [];
  const before = (i: number): number => (i > 0 ? i - 1 : i);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === '') continue;
    const prev = i > 0 ? words[i - 1] : undefined;
    const head2 = w.slice(0, 2);
    if ((w === '안' || w === '못') && i + 1 < words.length) {
      out.push({ index: i + 1, cue: w, kind: 'syntactic' });
    } else if (w.startsWith('않')) {
      out.push({ index: before(i), cue: endsWithJi(prev) ? '-지 않' : '않', kind: 'syntactic' });
    } else if (w.startsWith('못') && endsWithJi(prev) && !w.startsWith('못지')) {
      out.push({ index: before(i), cue: '-지 못하', kind: 'syntactic' });
    } else if (
      endsWithJi(prev) &&
      (w.startsWith('말') || w.startsWith('마세') || w.startsWith('마라') || w.startsWith('맙') || w.startsWith('마십'))
    ) {
      out.push({ index: before(i), cue: '-지 말', kind: 'syntactic' });
    } else if (KO_AN_ATTACHED.has(head2)) {
      out.push({ index: i, cue: '안', kind: 'syntactic' });
    } else if (KO_MOT_ATTACHED.has(head2)) {
      out.push({ index: i, cue: '못', kind: 'syntactic' });
    } else if (w.indexOf('지않') > 0 || w.indexOf('지못하') > 0 || w.indexOf('지못했') > 0) {
      out.push({ index: i, cue: w.indexOf('지않') > 0 ? '-지 않' : '-지 못하', kind: 'syntactic' });
    } else if (w.startsWith('아니') || w.startsWith('아닌') || w.startsWith('아닙') || w.startsWith('아냐')) {
      out.push({ index: before(i), cue: w, kind: 'syntactic' });
    } else {
      const eops = eopsForm(w);
      if (eops !== undefined) out.push({ index: eops.at === 0 ? before(i) : i, cue: eops.form, kind: 'syntactic' });
    }
    const lex = lexicalKorean(w);
    if (lex !== undefined) out.push({ index: i, cue: lex.slice(0, 1), kind: 'lexical' });
  }
  return out;
}
