/**
 * English stemmer following the Porter2 (Snowball English) algorithm. Written here because no
 * stemmer package is installed and dependencies are not added without asking (§1.2 names
 * `wink-porter2-stemmer` as the packaged alternative).
 */

const EXCEPTIONS: Readonly<Record<string, string>> = {
  skis: 'ski',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  idly: 'idl',
  gently: 'gentl',
  ugly: 'ugli',
  early: 'earli',
  only: 'onli',
  singly: 'singl',
  sky: 'sky',
  news: 'news',
  howe: 'howe',
  atlas: 'atlas',
  cosmos: 'cosmos',
  bias: 'bias',
  andes: 'andes',
};
const AFTER_1A = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed']);
const DOUBLES = ['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt'];
const LI_ENDING = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);

const isVowel = (c: string | undefined): boolean => c !== undefined && 'aeiouy'.includes(c);

function regionAfter(w: string, start: number): number {
  for (let i = start + 1; i < w.length; i++) if (!isVowel(w[i]) && isVowel(w[i - 1])) return i + 1;
  return w.length;
}

function regions(w: string): [number, number] {
  let r1: number;
  const prefix = /^(gener|commun|arsen)/.exec(w);
  if (prefix) r1 = prefix[0].length;
  else r1 = regionAfter(w, 0);
  return [r1, regionAfter(w, r1)];
}

/** A short syllable ends at index i (inclusive). */
function shortSyllableEndingAt(w: string, i: number): boolean {
  if (i === 1) return isVowel(w[0]) && !isVowel(w[1]);
  const c = w[i];
  return i >= 2 && !isVowel(w[i - 2]) && isVowel(w[i - 1]) && !isVowel(c) && c !== 'w' && c !== 'x' && c !== 'Y';
}

function isShort(w: string, r1: number): boolean {
  return r1 >= w.length && shortSyllableEndingAt(w, w.length - 1);
}

function hasVowel(s: string): boolean {
  for (const c of s) if (isVowel(c)) return true;
  return false;
}

function step1a(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ied') || w.endsWith('ies')) return w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  if (w.endsWith('us') || w.endsWith('ss')) return w;
  if (w.endsWith('s') && hasVowel(w.slice(0, -2))) return w.slice(0, -1);
  return w;
}

function step1b(w: string, r1: number): string {
  for (const suf of ['eedly', 'eed']) {
    if (w.endsWith(suf)) return w.length - suf.length >= r1 ? `${w.slice(0, -suf.length)}ee` : w;
  }
  for (const suf of ['ingly', 'edly', 'ing', 'ed']) {
    if (!w.endsWith(suf)) continue;
    const stem = w.slice(0, -suf.length);
    if (!hasVowel(stem)) return w;
    if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
    if (DOUBLES.some((d) => stem.endsWith(d))) return stem.slice(0, -1);
    if (isShort(stem, r1)) return `${stem}e`;
    return stem;
  }
  return w;
}

function step1c(w: string): string {
  const last = w[w.length - 1];
  if ((last === 'y' || last === 'Y') && w.length > 2 && !isVowel(w[w.length - 2])) return `${w.slice(0, -1)}i`;
  return w;
}

const STEP2: ReadonlyArray<[string, string]> = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
];

function step2(w: string, r1: number): string {
  for (const [suf, rep] of STEP2) {
    if (!w.endsWith(suf)) continue;
    const at = w.length - suf.length;
    if (at < r1) return w;
    if (suf === 'ogi' && w[at - 1] !== 'l') return w;
    if (suf === 'li' && !LI_ENDING.has(w[at - 1] ?? '')) return w;
    return w.slice(0, at) + rep;
  }
  return w;
}

const STEP3: ReadonlyArray<[string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];

function step3(w: string, r1: number, r2: number): string {
  for (const [suf, rep] of STEP3) {
    if (!w.endsWith(suf)) continue;
    const at = w.length - suf.length;
    if (at < r1) return w;
    if (suf === 'ative' && at < r2) return w;
    return w.slice(0, at) + rep;
  }
  return w;
}

const STEP4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'al',
  'er',
  'ic',
];

function step4(w: string, r2: number): string {
  for (const suf of STEP4) {
    if (!w.endsWith(suf)) continue;
    const at = w.length - suf.length;
    if (at < r2) return w;
    if (suf === 'ion' && w[at - 1] !== 's' && w[at - 1] !== 't') return w;
    return w.slice(0, at);
  }
  return w;
}

function step5(w: string, r1: number, r2: number): string {
  const at = w.length - 1;
  if (w.endsWith('e')) {
    if (at >= r2 || (at >= r1 && !shortSyllableEndingAt(w, at - 1))) return w.slice(0, -1);
    return w;
  }
  if (w.endsWith('l') && at >= r2 && w[at - 1] === 'l') return w.slice(0, -1);
  return w;
}

/** Stems one lower-case English word. Non-alphabetic input is returned unchanged. */
export function stemEnglish(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 2 || !/^[a-z']+$/.test(w)) return w;
  const exception = Object.hasOwn(EXCEPTIONS, w) ? EXCEPTIONS[w] : undefined;
  if (exception) return exception;
  w = w.replace(/^'/, '');
  if (w.startsWith('y')) w = `Y${w.slice(1)}`;
  w = w.replace(/([aeiouy])y/g, '$1Y');
  const [r1, r2] = regions(w);
  w = w.replace(/'s'$|'s$|'$/, '');
  w = step1a(w);
  if (AFTER_1A.has(w)) return w;
  w = step1b(w, r1);
  w = step1c(w);
  w = step2(w, r1);
  w = step3(w, r1, r2);
  w = step4(w, r2);
  w = step5(w, r1, r2);
  return w.replace(/Y/g, 'y');
}
