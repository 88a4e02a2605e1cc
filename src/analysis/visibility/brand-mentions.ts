import { escapeRegExp } from '../text/name-match.js';
import { withoutAddresses } from '../text/visible-text.js';
import { KOREAN_PARTICLES } from './korean-particles.js';
import { normalizeWithOffsets } from './nfkc-offsets.js';

/**
 * Brand mentions of §6.1: a name or alias found in an answer on word boundaries, case-insensitively, after NFKC.
 *
 * Stricter than the brand matching of §2.11.2, which finds Hangul names as substrings: a monitor counts one brand
 * against the others, so 삼성 must not be counted inside 삼성전자 nor 삼성전자 inside 삼성전자서비스. Only what a reader
 * sees counts: web addresses in the text (a results page's result URLs, pasted links) are blanked before matching
 * (text/visible-text.ts), so `…/brooks-vs-hoka/1` names neither brand.
 */
export interface Mention {
  /** Offset of the first character, in the caller's text (UTF-16 code units, as `String.prototype.slice`). */
  start: number;
  /** Offset just after the last character. */
  end: number;
  /** The name or alias that matched, as the caller gave it. */
  name: string;
}

/** Letters, combining marks and digits make words; "Nike" must not match in "Nikesh" nor "3M" in "13M". */
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{M}\\p{N}])';
const HANGUL = /\p{Script=Hangul}/u;

/**
 * Longest first, so that 에서 is tried before 에 and the chain ends where the word ends. At most four endings (만으로도
 * is three): the list can split one text in several ways (이랑 or 이+랑), so an unbounded chain that fails at its end
 * tries every split, exponentially many (나이키 and 24 × 이랑 then 격 took 30 s); four bound them to a few dozen.
 */
const MAX_PARTICLES = 4;
const PARTICLE_CHAIN = `(?:${[...KOREAN_PARTICLES]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|')}){0,${MAX_PARTICLES}}`;
/** The end of a word: nothing word-like next, after any Korean particles (나이키는, Nike의, 삼성전자에서는). */
const WORD_END = `(?=${PARTICLE_CHAIN}(?![\\p{L}\\p{M}\\p{N}]))`;

/** Apostrophes and dashes vary between answers (L’Oréal, S‐Oil), so any of each kind stands for the other. */
const APOSTROPHES = "['\\u2018\\u2019\\u02BC\\uFF07]";

/** A finder for one set of names (a brand and its aliases); build it once and run it on many answers. */
export function mentionFinder(names: readonly string[]): (text: string) => Mention[] {
  const byPattern = new Map<string, { raw: string; length: number }>();
  for (const raw of names) {
    const name = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
    if (!WORD_CHAR.test(name)) continue;
    const pattern = namePattern(name);
    if (!byPattern.has(pattern)) byPattern.set(pattern, { raw, length: [...name].length });
  }
  if (byPattern.size === 0) return () => [];
  // Longer names first: at one position the alternation takes the first that matches, so "Nike Inc" is one mention
  // and not "Nike" followed by a stray "Inc".
  const entries = [...byPattern.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const re = new RegExp(entries.map(([p], i) => `(?<n${i}>${p})`).join('|'), 'giu');
  return (original) => {
    // Blanked addresses keep their length: offsets found in the masked text are offsets in the original.
    const norm = normalizeWithOffsets(withoutAddresses(original));
    const found: Mention[] = [];
    for (const m of norm.text.matchAll(re)) {
      const k = entries.findIndex((_, i) => m.groups?.[`n${i}`] !== undefined);
      const last = m.index + m[0].length - 1;
      found.push({ start: norm.sourceStart(m.index), end: norm.sourceEnd(last), name: entries[k]?.[1].raw ?? '' });
    }
    return found;
  };
}

/** Occurrences of any of `names` in `text`, in text order and never overlapping. */
export function mentions(text: string, names: readonly string[]): Mention[] {
  return mentionFinder(names)(text);
}

/** The pattern of one NFKC, space-collapsed name. */
function namePattern(name: string): string {
  const chars = [...name];
  const body = chars
    .map((c, i) => {
      if (c === ' ') {
        // Korean spacing is loose (로얄 캐닌, 로얄캐닌): a space between two Hangul syllables may be left out.
        const hangul = HANGUL.test(chars[i - 1] ?? '') && HANGUL.test(chars[i + 1] ?? '');
        return hangul ? '\\s*' : '\\s+';
      }
      if (/\p{Pd}/u.test(c)) return '\\p{Pd}';
      if (/['\u2018\u2019\u02BC\uFF07]/u.test(c)) return APOSTROPHES;
      return escapeRegExp(c);
    })
    .join('');
  // A name that starts or ends with punctuation (".NET", "Yahoo!") has no word edge to check on that side.
  const before = WORD_CHAR.test(chars[0] ?? '') ? NOT_AFTER_WORD : '';
  const after = WORD_CHAR.test(chars[chars.length - 1] ?? '') ? WORD_END : '';
  return `${before}${body}${after}`;
}
