/** How figures and times read on the page: one place, so every view says them alike. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

/**
 * A time in a schedule's own time zone, named: a monitor scheduled in Asia/Seoul says when it runs there
 * ("Nov 29, 2026, 9:00 AM Asia/Seoul"), not in the browser's zone beside a Seoul cron. An unknown zone falls back to
 * the browser's, unnamed.
 */
export function whenIn(iso: string | null | undefined, timeZone: string | null | undefined): string {
  if (!iso || !timeZone) return when(iso);
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    const f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone });
    return `${f.format(d)} ${timeZone}`;
  } catch {
    return when(iso);
  }
}

/** A run's day (slots are UTC times). */
export function day(iso: string): string {
  return shortDate.format(new Date(iso));
}

export function percent(x: number | null | undefined, digits = 0): string {
  return x === null || x === undefined ? '—' : `${(x * 100).toFixed(digits)}%`;
}

export function count(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString();
}

/** The first `n` characters of a text on one line. */
function excerpt(text: string, n = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

/**
 * A URL a link may point at: http(s) only. Sources come from upstream answers, which may hold any scheme
 * (`javascript:`); such a one is shown as text, never followed.
 */
export function safeHref(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link's host name, shown beside it; the text as given when it is no URL. */
export function linkHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** The text a task asked, whatever its engine calls it. */
export function askedText(payload: Record<string, unknown> | null | undefined): string {
  if (!payload) return '';
  for (const k of ['prompt', 'query', 'seed', 'url', 'community', 'user', 'answer'])
    if (typeof payload[k] === 'string') return payload[k] as string;
  return '';
}

/** A listed task's question in a line: what it asked, or its id when it asked nothing in words. */
export function askedOf(t: { task?: { id?: string }; request?: { payload?: unknown } }, n = 100): string {
  return excerpt(askedText(t.request?.payload as Record<string, unknown> | undefined), n) || (t.task?.id ?? '');
}
