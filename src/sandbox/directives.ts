import { parseShifts, type VisibilityShift } from './landscape/shifts.js';

/**
 * Sandbox directives (docs/contract.md#sandbox-directives): test-card-like markers inside a prompt or query
 * that make the simulated upstream misbehave in a chosen way.
 */
export interface Directives {
  timeout: boolean;
  empty: boolean;
  error: boolean;
  captcha: boolean;
  /** An answer engine answers from what it knows: no search, no citations (`sandbox:nosearch`). */
  nosearch: boolean;
  /** An app's answer, or a Google results page, shows no product cards (`sandbox:noproducts`). */
  noproducts: boolean;
  /** A Google results page shows no sponsored unit: no text ad, no sponsored shopping card (`sandbox:noads`). */
  noads: boolean;
  /** A Google results page shows no local pack (`sandbox:noplaces`). */
  noplaces: boolean;
  /**
   * An app's conversation stream is cut after the answer's text, before its end (`sandbox:brokenstream`): the page
   * shows the whole answer, the stream cannot be read, and the app modes read the page.
   */
  brokenstream: boolean;
  /** First N requests for this text answer 5xx. */
  flaky: number;
  /** Answer after this many milliseconds. */
  delayMs: number;
  /** `sandbox:shift=…`: changes of a brand's visibility from a day on (landscape/shifts.ts). */
  shifts: VisibilityShift[];
}

export function parseDirectives(text: string | undefined | null): Directives {
  const t = text ?? '';
  return {
    timeout: /sandbox:timeout\b/.test(t),
    empty: /sandbox:empty\b/.test(t),
    error: /sandbox:error\b/.test(t),
    captcha: /sandbox:captcha\b/.test(t),
    nosearch: /sandbox:nosearch\b/.test(t),
    noproducts: /sandbox:noproducts\b/.test(t),
    noads: /sandbox:noads\b/.test(t),
    noplaces: /sandbox:noplaces\b/.test(t),
    brokenstream: /sandbox:brokenstream\b/.test(t),
    flaky: Number(/sandbox:flaky=(\d{1,4})/.exec(t)?.[1] ?? 0),
    delayMs: Math.min(600_000, Number(/sandbox:delay=(\d{1,7})/.exec(t)?.[1] ?? 0)),
    shifts: parseShifts(t),
  };
}

/** Directives without a value, and those with one (one pass; each alternative is anchored on `sandbox:`). */
const FLAGS = 'timeout|empty|error|captcha|nosearch|noproducts|noads|noplaces|brokenstream';
const DIRECTIVE = new RegExp(
  `(?<!\\s)\\s*sandbox:(?:(?:${FLAGS}|flaky=\\d+|delay=\\d+)\\b|shift=[\\p{L}\\p{N}:@+_-]+)`,
  'gu',
);

/** Removes directives from a text, so generated answers read naturally. */
export function stripDirectives(text: string): string {
  return text.replace(DIRECTIVE, '').trim();
}
