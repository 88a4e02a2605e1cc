import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFailure, type UpstreamFailureKind } from '../../src/domain/engine-errors.js';
import { foldCopilotEvents, type CopilotEvent } from '../../src/engines/search-c/copilot-events.js';
import { socketUrl } from '../../src/engines/search-c/copilot-socket.js';

/** A recorded transcript: one server frame per line. */
function transcript(name: string): CopilotEvent[] {
  return fs
    .readFileSync(new URL(`../fixtures/search-c/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as CopilotEvent);
}

function failure(events: CopilotEvent[]): UpstreamFailure {
  try {
    foldCopilotEvents(events);
  } catch (e) {
    if (e instanceof UpstreamFailure) return e;
    throw e;
  }
  throw new Error('expected an UpstreamFailure');
}
const kindOf = (events: CopilotEvent[]): UpstreamFailureKind => failure(events).kind;

describe('Copilot event folding over transcripts', () => {
  it('builds the answer and numbers citations by arrival, late ones and duplicates included', () => {
    const r = foldCopilotEvents(transcript('copilot-happy.jsonl'));
    expect(r.sources).toEqual([
      {
        position: 1,
        url: 'https://www.nytimes.com/wirecutter/reviews/best-ebook-reader/',
        label: 'The Best E-Reader | Wirecutter',
      },
      {
        position: 2,
        url: 'https://www.theverge.com/23110025/best-e-reader',
        label: 'The best e-reader to buy right now',
      },
      // Arrived after `done`, without a title: labelled by host.
      { position: 3, url: 'https://help.kobo.com/hc/en-us/articles/360017763313', label: 'help.kobo.com' },
    ]);
    // [3] cites the same page as [1]; [4] is the late citation; [7] has no citation and is dropped.
    expect(r.markdown).toBe(
      'The **Kindle Paperwhite** is the best all-round e-reader for most people [2].\n\n' +
        "Kobo's *Libra Colour* adds a colour screen [1]. It also supports library loans [3], see the [Kobo help](https://help.kobo.com/) pages.",
    );
    expect(r.text).toBe(
      'The Kindle Paperwhite is the best all-round e-reader for most people.\n\n' +
        "Kobo's Libra Colour adds a colour screen. It also supports library loans, see the Kobo help pages.",
    );
    expect(r.markdown).not.toContain('user wants');
    expect((r.raw as { droppedMarkers: string[] }).droppedMarkers).toEqual(['[7]']);
  });

  it('says the answer searched when a page was cited, and leaves it unknown when none was', () => {
    expect(foldCopilotEvents(transcript('copilot-happy.jsonl')).signals).toEqual({ searchTriggered: true });
    const uncited = foldCopilotEvents([
      { event: 'appendText', messageId: 'm', partId: '0', text: 'Hello there.' },
      { event: 'done', messageId: 'm' },
    ]);
    expect(uncited.signals).toBeUndefined();
  });

  it('applies replaceText to its part, or to the part written last when it names none', () => {
    const r = foldCopilotEvents(transcript('copilot-replace.jsonl'));
    expect(r.markdown).toBe(
      '서울의 인구는 약 **940만 명**입니다 [1].\n\n수도권 전체 인구는 약 2,600만 명입니다 [2] 😊',
    );
    expect(r.text).toBe('서울의 인구는 약 940만 명입니다.\n\n수도권 전체 인구는 약 2,600만 명입니다 😊');
    expect(r.sources.map((s) => s.label)).toEqual(['KOSIS 국가통계포털', '수도권 - 위키백과']);
  });

  it('reports a stream cut before done as UPSTREAM_ERROR', () => {
    expect(kindOf(transcript('copilot-cut.jsonl'))).toBe('UPSTREAM_ERROR');
  });

  it('reports a server error event as UPSTREAM_ERROR and a captcha challenge as UPSTREAM_BLOCKED', () => {
    expect(kindOf(transcript('copilot-error.jsonl'))).toBe('UPSTREAM_ERROR');
    expect(kindOf(transcript('copilot-challenge.jsonl'))).toBe('UPSTREAM_BLOCKED');
    expect(kindOf([{ event: 'challenge', id: 'x', method: 'cloudflare' }])).toBe('UPSTREAM_BLOCKED');
  });

  it('reports done without text as NO_ANSWER', () => {
    expect(kindOf(transcript('copilot-empty.jsonl'))).toBe('NO_ANSWER');
  });

  it('keeps error details short and free of unrelated members', () => {
    const f = failure([
      { event: 'error', errorCode: 'internal-server-error', message: 'x'.repeat(500), accessToken: 'secret-token' },
    ]);
    expect(f.message).toContain('errorCode=internal-server-error');
    expect(f.message).not.toContain('secret-token');
    expect(f.message.length).toBeLessThan(300);
  });
});

describe('Copilot socket URL', () => {
  it('keeps host and path prefix and switches to ws(s)', () => {
    expect(socketUrl('https://copilot.microsoft.com', '/c/api/chat', { 'api-version': '2' })).toBe(
      'wss://copilot.microsoft.com/c/api/chat?api-version=2',
    );
    expect(socketUrl('http://127.0.0.1:4000/copilot/', '/c/api/chat', { 'api-version': '2' })).toBe(
      'ws://127.0.0.1:4000/copilot/c/api/chat?api-version=2',
    );
  });
});
