import { norm } from './norm.js';
import { withoutAddresses } from './visible-text.js';

/**
 * Brand / entity / exclude-term matching of §2.11.2 and §3.5: Latin-script names need no Latin
 * letter or digit on either side (`apple의` matches, `pineapple` does not); Hangul names match as
 * substrings with spaces removed on both sides (`로얄 캐닌` = `로얄캐닌`). Names of one Hangul
 * syllable or at most two Latin characters must match a whole word. Web addresses in the text are not searched
 * (visible-text.ts): a name inside a URL is no mention.
 */
interface NameMatch {
  start: number;
  end: number;
}

export interface NameMatcher {
  readonly name: string;
  find(text: string): NameMatch[];
  test(text: string): boolean;
}

const HANGUL = /\p{Script=Hangul}/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** The text as a literal inside a regular expression. */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function nameMatcher(rawName: string): NameMatcher | null {
  const name = norm(rawName);
  if (!/[\p{L}\p{N}]/u.test(name)) return null;
  const inner = HANGUL.test(name) ? hangulFinder(name) : latinFinder(name);
  const find = (text: string) => inner(withoutAddresses(text));
  return { name, find, test: (text) => find(text).length > 0 };
}

function latinFinder(name: string): (text: string) => NameMatch[] {
  const body = name.split(' ').map(escapeRegExp).join('\\s+');
  const letters = name.replace(/[^\p{L}\p{N}]/gu, '').length;
  // Short names (`LG`, `3M`) must stand alone; longer ones only need no Latin letter/digit around.
  const side = letters <= 2 ? '[\\p{L}\\p{N}]' : '[\\p{Script=Latin}\\p{N}]';
  const re = new RegExp(`(?<!${side})${body}(?!${side})`, 'giu');
  return (text) =>
    [...text.normalize('NFKC').matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function hangulFinder(name: string): (text: string) => NameMatch[] {
  const needle = name.replace(/\s+/g, '').toLowerCase();
  const oneSyllable = [...needle].length === 1;
  return (input) => {
    const text = input.normalize('NFKC');
    // Compact the text (no whitespace) and remember where each compact character came from.
    const map: number[] = [];
    let compact = '';
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (/\s/.test(c)) continue;
      compact += c.toLowerCase();
      map.push(i);
    }
    const out: NameMatch[] = [];
    let from = 0;
    for (;;) {
      const at = compact.indexOf(needle, from);
      if (at < 0) break;
      const start = map[at] as number;
      const end = (map[at + needle.length - 1] as number) + 1;
      from = at + needle.length;
      if (oneSyllable && (WORD_CHAR.test(text[start - 1] ?? '') || WORD_CHAR.test(text[end] ?? ''))) continue;
      // A Latin letter glued to a Latin edge of the name is another word (`LG전자` vs `XLG전자`).
      if (/\p{Script=Latin}/u.test(needle[0] ?? '') && /[\p{Script=Latin}\p{N}]/u.test(text[start - 1] ?? '')) continue;
      out.push({ start, end });
    }
    return out;
  };
}
