import { describe, expect, it } from 'vitest';
import { InputError, formatOf, readPrompts } from '../../src/cli/study/input.js';
import { planStudy } from '../../src/cli/study/plan.js';

/** How a study file becomes tasks: the parsing of each format and the crossing with engines and countries. */
describe('study input and plan', () => {
  it('reads CSV with a BOM, quoted multi-line prompts, a synonym column and per-row engine and country', () => {
    const csv = '\uFEFFQuestion,Engine,Country\n"best tents,\nfor two",search_a,kr\nplain one,,\n';
    expect(readPrompts('p.csv', csv, 'csv')).toEqual([
      { row: 0, prompt: 'best tents,\nfor two', engine: 'SEARCH_A', country: 'KR' },
      { row: 1, prompt: 'plain one' },
    ]);
    expect(() => readPrompts('p.csv', 'text\nx\n', 'csv')).toThrow(/p\.csv: the first row must name the columns/);
    expect(() => readPrompts('p.csv', 'prompt,country\nx,USA\n', 'csv')).toThrow(
      'p.csv:2: country must be a two-letter code, got "USA"',
    );
  });

  it('reads JSONL strings and objects, naming the line of a mistake; lines skip blanks', () => {
    expect(readPrompts('p.jsonl', '"one"\n\n{"prompt":"two","engine":"CHATBOT_A"}\n', 'jsonl')).toEqual([
      { row: 0, prompt: 'one' },
      { row: 1, prompt: 'two', engine: 'CHATBOT_A' },
    ]);
    expect(() => readPrompts('p.jsonl', '"one"\n{oops\n', 'jsonl')).toThrow(/^p\.jsonl:2: not JSON/);
    expect(() => readPrompts('p.jsonl', '[1]\n', 'jsonl')).toThrow('p.jsonl:1: expected a string or an object');
    expect(() => readPrompts('p.jsonl', '{"prompt":" "}\n', 'jsonl')).toThrow('p.jsonl:1: empty prompt');
    expect(readPrompts('p.txt', '  a  \r\n\r\nb\n', 'lines')).toEqual([
      { row: 0, prompt: 'a' },
      { row: 1, prompt: 'b' },
    ]);
    expect(() => readPrompts('p.txt', '\n\n', 'lines')).toThrow('p.txt: no prompts');
    expect([formatOf('a.CSV'), formatOf('a.ndjson'), formatOf('a.txt'), formatOf('a.csv', 'lines')]).toEqual([
      'csv',
      'jsonl',
      'lines',
      'lines',
    ]);
    expect(() => formatOf('a.csv', 'xml')).toThrow(InputError);
  });

  it('crosses rows with engines and countries once each, aliases taken as their canonical engine', () => {
    const rows = [
      { row: 0, prompt: 'a' },
      { row: 1, prompt: 'b', engine: 'AIMODE', country: 'KR' },
    ];
    const items = planStudy(rows, {
      fileHash: 'f00d',
      engines: ['SEARCH_A', 'SEARCH_A_AIO', 'CHATBOT_A'],
      countries: ['US', 'KR', 'US'],
    });
    expect(items.map((i) => i.key)).toEqual([
      'aeq-run:f00d:0:SEARCH_A:US',
      'aeq-run:f00d:0:SEARCH_A:KR',
      'aeq-run:f00d:0:CHATBOT_A:US',
      'aeq-run:f00d:0:CHATBOT_A:KR',
      'aeq-run:f00d:1:AIMODE:KR',
    ]);
    expect(planStudy([{ row: 0, prompt: 'a' }], { fileHash: 'f', engines: ['FORUM'], countries: [] })).toEqual([
      { key: 'aeq-run:f:0:FORUM:-', row: 0, prompt: 'a', engine: 'FORUM', country: null },
    ]);
    expect(() => planStudy(rows, { fileHash: 'f', engines: [], countries: [] })).toThrow(
      'prompt 1 names no engine and no --engines was given',
    );
    expect(() => planStudy(rows, { fileHash: 'f', engines: ['SOURCE_INFLUENCE'], countries: [] })).toThrow(
      /--engines: unknown engine SOURCE_INFLUENCE; one of CHATBOT_A/,
    );
  });
});
