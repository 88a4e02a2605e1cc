import type { CapturedStream } from '../../transport/browser/browser-transport.js';
import type { AnswerSignals, EngineResult, RetrievedSource, Source } from '../engine-result.js';
import { displayHost, normalizeSourceUrl } from '../common/urls.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { isObject, type Json } from './json-patch.js';

/**
 * The app modes read the app's own conversation stream as the page received it, and the page only when the stream
 * cannot be read (docs/engines.md#app-streams). The response says which: `capture`.
 */
type CaptureKind = 'stream' | 'dom';

/**
 * The captured stream could not be read into an answer (absent, cut, over its byte bound, a format we do not know).
 * Not an upstream failure: the adapter reads the page instead, and only the page's reading may fail the attempt.
 */
export class StreamUnreadable extends Error {
  override readonly name = 'StreamUnreadable';
}

/** What an app's stream says about one answer. */
export interface StreamAnswer {
  markdown: string;
  text: string;
  sources: Source[];
  signals: Partial<AnswerSignals>;
  /** Counts for `raw` (never the stream itself: it carries the session's ids and tokens). */
  stats: Record<string, number | string | boolean>;
}

export type ProductCard = NonNullable<AnswerSignals['products']>[number];

/** Cited sources in order of first citation, deduplicated by normalised URL. */
export class SourceList {
  readonly sources: Source[] = [];
  private readonly byUrl = new Map<string, number>();

  /** The position of `url` (added when new); null for a URL that is not http(s). */
  cite(rawUrl: string, title: string | null): number | null {
    if (!/^https?:\/\//i.test(rawUrl)) return null;
    const url = normalizeSourceUrl(rawUrl);
    const known = this.byUrl.get(url);
    if (known !== undefined) return known;
    const position = this.sources.length + 1;
    this.byUrl.set(url, position);
    this.sources.push({ position, url, label: title?.trim() || displayHost(url) });
    return position;
  }

  has(rawUrl: string): boolean {
    return this.byUrl.has(normalizeSourceUrl(rawUrl));
  }
}

/** Listed results not cited, deduplicated, numbered in listing order. */
export function uncited(
  listed: ReadonlyArray<{ url: string; title: string | null; query: string | null }>,
  cited: SourceList,
): RetrievedSource[] {
  const seen = new Set<string>();
  const out: RetrievedSource[] = [];
  for (const r of listed) {
    if (!/^https?:\/\//i.test(r.url)) continue;
    const url = normalizeSourceUrl(r.url);
    if (seen.has(url) || cited.has(url)) continue;
    seen.add(url);
    out.push({ position: out.length + 1, url, title: r.title, query: r.query });
  }
  return out;
}

export function str(v: Json | undefined): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/**
 * A product card of an app's stream, from the member names the apps are seen to use (`title`/`name`, `url`, `price`
 * as shown or `{amount, currency}`, `merchant`/`merchants[0].name`/`seller`, `rating`). Null without a title.
 */
export function productOf(v: Json | undefined, position: number): ProductCard | null {
  if (!isObject(v)) return null;
  const title = str(v.title) ?? str(v.name);
  if (!title) return null;
  let price = str(v.price);
  let currency = str(v.currency);
  if (isObject(v.price)) {
    const amount = v.price.amount;
    price = typeof amount === 'number' || typeof amount === 'string' ? String(amount) : str(v.price.text);
    currency ??= str(v.price.currency);
  }
  const merchants = Array.isArray(v.merchants) ? v.merchants[0] : undefined;
  const merchant = str(v.merchant) ?? str(v.seller) ?? (isObject(merchants) ? str(merchants.name) : str(merchants));
  const rating = typeof v.rating === 'number' && Number.isFinite(v.rating) ? v.rating : null;
  const url = str(v.url);
  return {
    position,
    title: title.trim(),
    url: url && /^https?:\/\//i.test(url) ? normalizeSourceUrl(url) : null,
    price,
    currency: currency ? currency.toUpperCase() : null,
    merchant,
    rating,
  };
}

/** Which path produced a result of an app mode (its `extra.capture`); null for any other result. */
function captureOf(r: EngineResult): CaptureKind | null {
  const c = (r.extra as { capture?: unknown } | undefined)?.capture;
  return c === 'stream' || c === 'dom' ? c : null;
}

/**
 * The budget a captured stream gets: bytes beyond which it is not kept (a long answer with its search metadata is a
 * few hundred kilobytes; the bound keeps a runaway stream out of memory), and the wait after the page settled for a
 * stream still open.
 */
export const APP_STREAM_MAX_BYTES = 8 * 1024 * 1024;
export const APP_STREAM_GRACE_MS = 2000;

/**
 * The page that never settled is a TIMEOUT, as for every browser engine (docs/engines.md#browser-completion-rule),
 * unless the stream gave the whole answer: then the page's state does not matter.
 */
export function unlessStreamed(r: EngineResult, pageComplete: boolean, label: string): EngineResult {
  if (!pageComplete && captureOf(r) !== 'stream')
    throw new UpstreamFailure('TIMEOUT', `${label}: the answer was still changing when the render budget ran out`);
  return r;
}

/** The result of a stream's answer, with `capture: "stream"`; `raw` is the adapter's to complete. */
export function streamResult(a: StreamAnswer, raw: Record<string, unknown>): EngineResult {
  return {
    text: a.text,
    markdown: a.markdown,
    sources: a.sources,
    signals: a.signals,
    extra: { capture: 'stream' satisfies CaptureKind },
    raw: { ...raw, capture: 'stream', stream: a.stats },
  };
}

/** A page's result read because the stream could not be: `capture: "dom"`, and why in `raw.streamUnread`. */
export function domResult(r: EngineResult, why: string): EngineResult {
  return {
    ...r,
    extra: { ...r.extra, capture: 'dom' satisfies CaptureKind },
    raw: { ...(r.raw as Record<string, unknown>), capture: 'dom', streamUnread: why },
  };
}

/**
 * The stream's answer, or why it cannot be read (the page is read then): no such response, a refusal (its status),
 * not an event stream, cut, over the byte bound, or not understood by `read`.
 */
export function readCaptured(
  stream: CapturedStream | null,
  read: (body: string) => StreamAnswer,
): StreamAnswer | string {
  if (!stream) return 'the page never requested its stream';
  if (stream.status !== 200) return `the stream answered HTTP ${stream.status}`;
  if (!/^text\/event-stream\b/i.test(stream.contentType.trim())) return 'the response is not an event stream';
  if (stream.truncated) return `the stream was over the byte bound (${stream.bytes} bytes)`;
  if (!stream.complete) return 'the stream had not ended when the page was read';
  try {
    return read(stream.body);
  } catch (e) {
    if (e instanceof StreamUnreadable) return e.message;
    throw e;
  }
}
