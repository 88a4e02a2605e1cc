import { EN_PHRASES } from './english-tables.js';
import { KO_PHRASES } from './korean-tables.js';

/**
 * Multi-word paraphrase rewriting. Each table pattern is compiled once. A match must start at a word boundary
 * (no letter or digit before it, checked in the replacer); English matches must also end at one. Words inside a
 * pattern are joined by [ \t]+, so a rewrite never spans a line or a sentence break.
 */

interface Phrase {
  re: RegExp;
  rep: string;
  /** Lower-case strings one of which every match contains; the regex runs only when the text has one. */
  anchors: readonly string[];
}

const SPECIAL = /[[\\(){}?*+|.^$]/;

/** The literal text a pattern starts with, or of each branch of a leading (?:a|b|c) group; [] when there is none. */
function anchorsOf(pattern: string): string[] {
  const literal = (p: string): string => {
    const at = p.search(SPECIAL);
    return (at < 0 ? p : p.slice(0, at)).toLowerCase();
  };
  if (!pattern.startsWith('(?:')) {
    const head = literal(pattern);
    return head === '' ? [] : [head];
  }
  let depth = 0;
  let start = 3;
  const branches: string[] = [];
  for (let i = 3; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if ((c === '|' || c === ')') && depth === 0) {
      branches.push(literal(pattern.slice(start, i)));
      start = i + 1;
      if (c === ')') break;
    }
  }
  return branches.every((b) => b !== '') ? branches : [];
}

function compile(table: ReadonlyArray<readonly [string, string]>, wrap: (p: string) => RegExp): Phrase[] {
  return table.map(([p, rep]) => ({ re: wrap(p), rep, anchors: anchorsOf(p) }));
}

// The start-of-word test is made in the replacer, not with a lookbehind, so the regex can scan for its literal.
const KO_COMPILED = compile(KO_PHRASES, (p) => new RegExp(p, 'gu'));
const EN_COMPILED = compile(EN_PHRASES, (p) => new RegExp(`(?:${p})(?![\\p{L}\\p{N}])`, 'giu'));
const WORD_BEFORE_KO = /[\p{L}\p{N}]/u;
const WORD_BEFORE_EN = /[\p{L}\p{N}'-]/u;

function replaceAtWordStart(text: string, re: RegExp, rep: string, wordChar: RegExp): string {
  return text.replace(re, (match: string, ...rest: unknown[]) => {
    const offset = rest[rest.length - 2] as number;
    return offset > 0 && wordChar.test(text[offset - 1] ?? '') ? match : rep;
  });
}

const HANGUL = /[\uac00-\ud7a3]/u;
const LATIN = /[A-Za-z]/;

/** Korean first (its patterns only match Hangul), then English; text without either script is returned as is. */
export function rewritePhrases(text: string, lang: 'en' | 'ko'): string {
  let out = text;
  const tables = lang === 'ko' ? [KO_COMPILED, EN_COMPILED] : [EN_COMPILED, KO_COMPILED];
  for (const table of tables) {
    if (table === KO_COMPILED ? !HANGUL.test(out) : !LATIN.test(out)) continue;
    const lower = table === EN_COMPILED ? out.toLowerCase() : out;
    for (const { re, rep, anchors } of table) {
      if (anchors.length > 0 && !anchors.some((a) => lower.includes(a))) continue;
      out = replaceAtWordStart(out, re, rep, table === KO_COMPILED ? WORD_BEFORE_KO : WORD_BEFORE_EN);
    }
  }
  return out;
}
