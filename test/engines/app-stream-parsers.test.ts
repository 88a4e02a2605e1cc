import { describe, expect, it } from 'vitest';
import { readChatGptStream } from '../../src/engines/chat/chatgpt-app-stream.js';
import { readPerplexityStream } from '../../src/engines/chat/perplexity-app-stream.js';
import { StreamUnreadable } from '../../src/engines/chat/app-stream.js';
import { applyPatch, patchBudget, type JsonObject } from '../../src/engines/chat/json-patch.js';

/**
 * The app-stream readers on streams written here in the shapes docs/engines.md#app-streams describes (no public
 * recording with a usable licence was found: docs/real-inputs.md#app-streams).
 */
const ev = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

const CITE = (refs: string) => `\ue200cite\ue202${refs}\ue201`;

function chatgptStream(o: { encoding?: string; finish?: boolean; refs?: boolean } = {}): string {
  const mark1 = CITE('turn0search0');
  const mark2 = CITE('turn0search1\ue202turn0search0');
  const shop = '\ue200products\ue202turn0product0\ue201';
  const p1 = `Kettles scale up 🫖 fast. ${mark1}`;
  const p2 = `\n\nVinegar works ${mark2}`;
  const text = `${p1}${p2}\n\n${shop}`;
  const refs = [
    {
      matched_text: mark1,
      start_idx: p1.length - mark1.length,
      end_idx: p1.length,
      type: 'grouped_webpages',
      items: [{ url: 'https://a.example/x?utm_source=chatgpt.com', title: 'A' }],
    },
    {
      // Code-point indexes: the emoji before it counts once.
      matched_text: mark2,
      start_idx: [...`${p1}${p2}`].length - mark2.length,
      end_idx: [...`${p1}${p2}`].length,
      type: 'grouped_webpages',
      items: [
        { url: 'https://b.example/y', title: 'B' },
        { url: 'https://a.example/x', title: 'A again' },
      ],
    },
    {
      matched_text: shop,
      start_idx: text.length - shop.length,
      end_idx: text.length,
      type: 'products',
      products: [{ title: 'Kettle One', url: 'https://shop.example/k1', price: '$30', currency: 'usd', rating: 4.5 }],
    },
  ];
  const pieces = [text.slice(0, 10), text.slice(10, 40), text.slice(40)];
  return [
    ev(`"${o.encoding ?? 'v1'}"`, 'delta_encoding'),
    ev({ type: 'resume_conversation_token', token: 'secret-token' }),
    ev(
      {
        p: '',
        o: 'add',
        v: { message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['q'] } } },
        c: 0,
      },
      'delta',
    ),
    ev(
      {
        v: {
          message: {
            author: { role: 'tool', name: 'web.run' },
            content: { content_type: 'text', parts: [''] },
            metadata: {
              search_model_queries: { queries: ['descale kettle'] },
              search_result_groups: [
                {
                  entries: [
                    { url: 'https://a.example/x', title: 'A' },
                    { url: 'https://c.example/z', title: 'C' },
                  ],
                },
                { entries: [{ url: 'https://b.example/y', title: 'B' }] },
              ],
            },
          },
        },
        c: 1,
      },
      'delta',
    ),
    ev(
      {
        v: {
          message: {
            author: { role: 'assistant' },
            content: { content_type: 'text', parts: [''] },
            status: 'in_progress',
            recipient: 'all',
          },
        },
        c: 2,
      },
      'delta',
    ),
    ev({ p: '/message/content/parts/0', o: 'append', v: pieces[0] }, 'delta'),
    ev({ v: pieces[1] }, 'delta'),
    ev({ o: 'patch', v: [{ p: '/message/content/parts/0', o: 'append', v: pieces[2] }] }, 'delta'),
    ...(o.refs === false ? [] : [ev({ p: '/message/metadata/content_references', o: 'replace', v: refs }, 'delta')]),
    ...(o.finish === false
      ? []
      : [
          ev({ p: '', o: 'patch', v: [{ p: '/message/status', o: 'replace', v: 'finished_successfully' }] }, 'delta'),
          ev({ type: 'message_stream_complete' }),
          ev('[DONE]'),
        ]),
  ].join('');
}

describe('ChatGPT conversation stream', () => {
  it('reads the answer with its citations in place, searches, listed results and cards', () => {
    const a = readChatGptStream(chatgptStream());
    expect(a.markdown).toBe('Kettles scale up 🫖 fast. [1]\n\nVinegar works [2][1]\n\n');
    expect(a.text).not.toMatch(/\[\d\]|[\ue200-\ue203]/);
    expect(a.sources).toEqual([
      { position: 1, url: 'https://a.example/x', label: 'A' },
      { position: 2, url: 'https://b.example/y', label: 'B' },
    ]);
    expect(a.signals).toEqual({
      searchTriggered: true,
      searchQueries: ['descale kettle'],
      retrievedSources: [{ position: 1, url: 'https://c.example/z', title: 'C', query: null }],
      products: [
        {
          position: 1,
          title: 'Kettle One',
          url: 'https://shop.example/k1',
          price: '$30',
          currency: 'USD',
          merchant: null,
          rating: 4.5,
        },
      ],
    });
    expect(JSON.stringify(a)).not.toMatch(/secret-token/);
  });

  it('strips the marks it cannot place', () => {
    const a = readChatGptStream(chatgptStream({ refs: false }));
    expect(a.markdown).toBe('Kettles scale up 🫖 fast. \n\nVinegar works \n\n');
    expect(a.sources).toEqual([]);
    // The search ran (the tool's message says so) though nothing was cited.
    expect(a.signals.searchTriggered).toBe(true);
  });

  it('refuses an unknown encoding, a cut stream, and a stream without an answer', () => {
    expect(() => readChatGptStream(chatgptStream({ encoding: 'v2' }))).toThrow(StreamUnreadable);
    expect(() => readChatGptStream(chatgptStream({ finish: false }))).toThrow(/ended before/);
    expect(() => readChatGptStream(ev('"v1"', 'delta_encoding') + ev('[DONE]'))).toThrow(/no assistant answer/);
    expect(() => readChatGptStream('')).toThrow(StreamUnreadable);
  });

  it('reads a long stream of appends in linear time', () => {
    const n = 50_000;
    const body =
      ev('"v1"', 'delta_encoding') +
      ev(
        {
          p: '',
          o: 'add',
          v: { message: { author: { role: 'assistant' }, content: { content_type: 'text', parts: [''] } } },
        },
        'delta',
      ) +
      ev({ p: '/message/content/parts/0', o: 'append', v: 'word ' }, 'delta') +
      ev({ v: 'word ' }, 'delta').repeat(n) +
      ev('[DONE]');
    const started = performance.now();
    const a = readChatGptStream(body);
    expect(a.markdown.length).toBe(5 * (n + 1));
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

function perplexityStream(o: { done?: boolean } = {}): string {
  const msg = (blocks: unknown[], final = false) =>
    ev({ status: final ? 'COMPLETED' : 'PENDING', ...(final ? { final_sse_message: true } : {}), blocks }, 'message');
  return [
    msg([
      {
        intended_usage: 'pro_search_steps',
        plan_block: { steps: [{ step_type: 'SEARCH_WEB', search_web_content: { queries: [{ query: 'kettle' }] } }] },
      },
    ]),
    msg([
      {
        intended_usage: 'web_results',
        web_result_block: {
          web_results: [
            { name: 'One', url: 'https://one.example/' },
            { name: 'Two', url: 'https://two.example/' },
            { name: 'Three', url: 'https://three.example/' },
          ],
        },
      },
    ]),
    msg([
      {
        intended_usage: 'ask_text',
        diff_block: { field: 'markdown_block', patches: [{ op: 'replace', path: '', value: { chunks: [] } }] },
      },
    ]),
    msg([
      {
        intended_usage: 'ask_text',
        diff_block: {
          field: 'markdown_block',
          patches: [{ op: 'add', path: '/chunks/-', value: 'Use citric acid[2].' }],
        },
      },
    ]),
    msg([
      {
        intended_usage: 'ask_text',
        diff_block: { field: 'markdown_block', patches: [{ op: 'add', path: '/chunks/-', value: ' Rinse[9][2].' }] },
      },
    ]),
    ...(o.done === false
      ? []
      : [
          msg(
            [
              {
                intended_usage: 'shopping_widget',
                shopping_block: {
                  products: [
                    { name: 'Descaler', price: { amount: 9.5, currency: 'eur' }, merchants: [{ name: 'Shop' }] },
                  ],
                },
              },
            ],
            true,
          ),
          ev({}, 'end_of_stream'),
        ]),
  ].join('');
}

describe('Perplexity answer stream', () => {
  it('renumbers citations by first use and lists what was read but not cited', () => {
    const a = readPerplexityStream(perplexityStream());
    // [9] names no result: dropped.
    expect(a.markdown).toBe('Use citric acid[1]. Rinse[1].');
    expect(a.sources).toEqual([{ position: 1, url: 'https://two.example/', label: 'Two' }]);
    expect(a.signals.searchQueries).toEqual(['kettle']);
    expect(a.signals.retrievedSources?.map((r) => r.url)).toEqual(['https://one.example/', 'https://three.example/']);
    expect(a.signals.products).toEqual([
      { position: 1, title: 'Descaler', url: null, price: '9.5', currency: 'EUR', merchant: 'Shop', rating: null },
    ]);
  });

  it('refuses a stream cut before its end', () => {
    expect(() => readPerplexityStream(perplexityStream({ done: false }))).toThrow(/before the answer was complete/);
  });
});

describe('applyPatch', () => {
  it('sets, appends, inserts, truncates and removes by JSON pointer', () => {
    const root: JsonObject = { a: { list: ['x'] } };
    expect(applyPatch(root, '/a/text', 'append', 'he', patchBudget(1000))).toBe(true);
    expect(applyPatch(root, '/a/text', 'append', 'llo', patchBudget(1000))).toBe(true);
    expect(applyPatch(root, '/a/list/-', 'add', 'y', patchBudget(1000))).toBe(true);
    expect(applyPatch(root, '/a/list/0', 'replace', 'w', patchBudget(1000))).toBe(true);
    expect(applyPatch(root, '/a/text', 'truncate', 4, patchBudget(1000))).toBe(true);
    expect(applyPatch(root, '/new~1key/deep', 'add', 1, patchBudget(1000))).toBe(true);
    expect(applyPatch(root, '/a/text/x', 'add', 1, patchBudget(1000))).toBe(false);
    expect(applyPatch(root, '/a/list/7', 'replace', 1, patchBudget(1000))).toBe(false);
    expect(applyPatch(root, '/a/list/0', 'remove', null, patchBudget(1000))).toBe(true);
    expect(root).toEqual({ a: { list: ['y'], text: 'hell' }, 'new/key': { deep: 1 } });
  });

  it('never reaches a prototype: __proto__, constructor and prototype are refused, and nothing is polluted', () => {
    const root: JsonObject = {};
    const budget = patchBudget(1000);
    expect(applyPatch(root, '/__proto__/polluted', 'add', 'yes', budget)).toBe(false);
    expect(applyPatch(root, '/constructor/prototype/polluted', 'add', 'yes', budget)).toBe(false);
    expect(applyPatch(root, '/a/__proto__', 'replace', { polluted: 'yes' }, budget)).toBe(false);
    expect(applyPatch(root, '/toString', 'remove', null, budget)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof {}.toString).toBe('function');
  });

  it('ends a stream of front inserts once its work budget is spent, in linear time', () => {
    const root: JsonObject = { list: [] };
    const budget = patchBudget(1000);
    let placed = 0;
    for (let i = 0; i < 20_000; i++) if (applyPatch(root, '/list/0', 'add', i, budget)) placed++;
    // 1,016,000 element moves allowed: about 1,425 inserts at the front of a growing list, then none.
    expect(placed).toBeLessThan(1_500);
    expect(placed).toBeGreaterThan(1_000);
  });
});
