/**
 * Hangul syllable arithmetic (Unicode §3.12): a precomposed syllable is 0xAC00 + (L * 21 + V) * 28 + T.
 * Done with char codes, not a library, because the stemmer needs only these few operations per word.
 */

const BASE = 0xac00;
const LAST = 0xd7a3;

/** Jongseong (final consonant) indices used by the stemmer. */
export const T = { none: 0, n: 4, nh: 6, l: 8, m: 16, b: 17, ss: 20 } as const;
/** Choseong (initial consonant) indices. */
export const L = {
  g: 0,
  gg: 1,
  n: 2,
  d: 3,
  dd: 4,
  r: 5,
  m: 6,
  b: 7,
  bb: 8,
  s: 9,
  ss: 10,
  ng: 11,
  j: 12,
  jj: 13,
  ch: 14,
  k: 15,
  t: 16,
  p: 17,
  h: 18,
} as const;
/** Jungseong (vowel) indices. */
export const V = {
  a: 0,
  ae: 1,
  eo: 4,
  e: 5,
  yeo: 6,
  o: 8,
  wa: 9,
  wae: 10,
  oe: 11,
  u: 13,
  wo: 14,
  eu: 18,
  i: 20,
} as const;

export function isSyllable(code: number): boolean {
  return code >= BASE && code <= LAST;
}

export function initialOf(code: number): number {
  return Math.floor((code - BASE) / 588);
}

export function vowelOf(code: number): number {
  return Math.floor(((code - BASE) % 588) / 28);
}

export function finalOf(code: number): number {
  return (code - BASE) % 28;
}

export function compose(initial: number, vowel: number, final: number): string {
  return String.fromCharCode(BASE + (initial * 21 + vowel) * 28 + final);
}

/** The syllable with its final consonant replaced. */
export function withFinal(code: number, final: number): string {
  return String.fromCharCode(code - finalOf(code) + final);
}

/** True when the string contains at least one Hangul syllable or jamo. */
export function hasHangul(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isSyllable(c) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f)) return true;
  }
  return false;
}
