import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult, Source } from '../adapter.js';
import { markdownToText } from '../common/markdown-text.js';
import { displayHost, normalizeSourceUrl } from '../common/urls.js';

/** One server frame of the Copilot chat socket (docs/engines.md#copilot-chat): `event` plus its payload. */
export type CopilotEvent = Record<string, unknown> & { event?: unknown };

/** Error payloads that mean "prove you are human" rather than a server fault. */
const CHALLENGE_PATTERN = /captcha|challenge|turnstile/i;

/** Whether the stream has said everything it will: completion, or an error that ends the turn. */
export function endsTurn(e: CopilotEvent): boolean {
  return e.event === 'done' || e.event === 'error' || e.event === 'challenge';
}

/**
 * Folds a Copilot event transcript into the normalised answer. Kept free of any socket so recorded
 * transcripts can be replayed in tests.
 *
 * - `appendText` deltas are concatenated per part; `replaceText` replaces its part (or the part
 *   written last when it names none); `chainOfThought` is reasoning, not answer.
 * - `citation` events become sources in arrival order, de-duplicated by normalised URL. Inline
 *   markers `[k]` refer to the k-th citation event and are rewritten to that source's position;
 *   markers without a citation are dropped (and listed in `raw`).
 * - Failures, in the order of docs/engines.md#failure-order: an `error`/`challenge` event (blocked when it
 *   is a captcha-type challenge), a stream cut before `done`, then a `done` without any text.
 */
export function foldCopilotEvents(events: readonly CopilotEvent[]): EngineResult {
  const failure = events.find((e) => e.event === 'error' || e.event === 'challenge');
  if (failure) {
    const summary = describeError(failure);
    const blocked = failure.event === 'challenge' || CHALLENGE_PATTERN.test(summary);
    throw new UpstreamFailure(blocked ? 'UPSTREAM_BLOCKED' : 'UPSTREAM_ERROR', `copilot error event: ${summary}`);
  }
  if (!events.some((e) => e.event === 'done')) {
    throw new UpstreamFailure('UPSTREAM_ERROR', `copilot: stream ended before done (${events.length} events)`);
  }

  const parts = new Map<string, string>();
  let lastPart: string | null = null;
  const citations: Array<{ url: string; title: string | null }> = [];
  for (const e of events) {
    if (e.event === 'appendText' && typeof e.text === 'string') {
      const part: string = partKey(e);
      parts.set(part, (parts.get(part) ?? '') + e.text);
      lastPart = part;
    } else if (e.event === 'replaceText' && typeof e.text === 'string') {
      const part: string = typeof e.partId === 'string' ? partKey(e) : (lastPart ?? partKey(e));
      parts.set(part, e.text);
      lastPart = part;
    } else if (e.event === 'citation' && typeof e.url === 'string' && e.url !== '') {
      citations.push({
        url: e.url,
        title: typeof e.title === 'string' && e.title.trim() !== '' ? e.title.trim() : null,
      });
    }
  }
  const answer = [...parts.values()].filter((p) => p.trim() !== '').join('\n\n');
  if (answer.trim() === '') throw new UpstreamFailure('NO_ANSWER', 'copilot: done without any answer text');

  const sources: Source[] = [];
  const byUrl = new Map<string, number>();
  const positionOfCitation = citations.map((c) => {
    const url = normalizeSourceUrl(c.url);
    let pos = byUrl.get(url);
    if (pos === undefined) {
      pos = sources.length + 1;
      byUrl.set(url, pos);
      sources.push({ position: pos, url, label: c.title ?? displayHost(url) });
    }
    return pos;
  });
  const dropped: string[] = [];
  const markdown = answer
    .replace(/(?<![ \t])([ \t]*)\[(\d{1,3})\](?!\()/g, (m, space: string, k: string) => {
      const pos = positionOfCitation[Number(k) - 1];
      if (pos === undefined) {
        dropped.push(m.trim());
        return '';
      }
      return `${space}[${pos}]`;
    })
    // Two citations of one page become the same marker twice in a row: keep one.
    .replace(/(\[\d+\])\1+/g, '$1')
    .replace(/(?<![ \t])[ \t]+$/gm, '');
  const text = markdownToText(markdown.replace(/(?<![ \t])[ \t]*\[\d+\](?!\()/g, ''));
  return {
    text,
    markdown,
    sources,
    // A cited page was found on the web: the answer searched. Without one the stream does not say (Copilot sends no
    // search event), so the signal stays unknown rather than false (docs/contract.md#answer-signals).
    ...(citations.length > 0 ? { signals: { searchTriggered: true } } : {}),
    raw: { events, droppedMarkers: dropped },
  };
}

function partKey(e: CopilotEvent): string {
  const msg = typeof e.messageId === 'string' ? e.messageId : '';
  const part = typeof e.partId === 'string' ? e.partId : '';
  return `${msg}/${part}`;
}

/** A short log line for an error frame; only code/message-like members, never the whole frame. */
function describeError(e: CopilotEvent): string {
  const bits: string[] = [String(e.event)];
  for (const k of ['errorCode', 'code', 'type', 'method', 'message', 'reason']) {
    const v = e[k];
    if (typeof v === 'string' && v !== '') bits.push(`${k}=${v.slice(0, 200)}`);
  }
  return bits.join(' ');
}
