/**
 * `sandbox:shift=<brand>:<±points>@<YYYY-MM-DD>[:<TASK_TYPE>]`: from that day (UTC, by the service's clock) on, the
 * brand is that many percentage points more (or less) likely to be recommended, on every engine or on the one named.
 * Several may sit in one prompt. `<brand>` is the brand's key: lower case, `-` for spaces and punctuation
 * (`new-balance`, `hill-s`).
 */
export interface VisibilityShift {
  brand: string;
  /** Percentage points, -100 to +100. */
  points: number;
  /** First day it applies, `YYYY-MM-DD`. */
  from: string;
  /** The one engine (task type) it applies to, or null for all. */
  engine: string | null;
}

const SHIFT = /sandbox:shift=([\p{L}\p{N}-]{1,40}):([+-]\d{1,3})@(\d{4}-\d{2}-\d{2})(?::([A-Z][A-Z0-9_]{0,39}))?/gu;

export function parseShifts(text: string): VisibilityShift[] {
  const out: VisibilityShift[] = [];
  for (const m of text.matchAll(SHIFT)) {
    const points = Math.max(-100, Math.min(100, Number(m[2])));
    out.push({ brand: m[1] as string, points, from: m[3] as string, engine: m[4] ?? null });
  }
  return out;
}
