import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { classifyRemoved } from '../../bench/reader/drop-trace-core.js';

const execFileAsync = promisify(execFile);

const EXPECTED = [
  'The council approved eleven kilometres of protected cycle lanes on Tuesday evening.',
  'Related:',
  'Cyclists had asked for separated lanes since a series of crashes on the ring road.',
  'Cyclists had asked for separated lanes since a series of crashes on the ring road.',
].join('\n');

describe('the drop tracer tells article text from boilerplate by the expected text', () => {
  it('by word 4-grams for a block of four words or more, by a whole line for a shorter one', () => {
    const out = classifyRemoved(
      [
        { rule: 'figcaption', tag: 'FIGCAPTION', text: 'eleven kilometres of protected cycle lanes' },
        { rule: 'figcaption', tag: 'FIGCAPTION', text: 'A protected lane on Mill Road, photographed by the desk' },
        { rule: 'ui-label', tag: 'P', text: 'Related:' },
        // "Tuesday" is in the expected text, but not as a line of its own.
        { rule: 'ui-label', tag: 'P', text: 'Tuesday' },
      ],
      EXPECTED,
    );
    expect(out.map((b) => b.articleText)).toEqual([true, false, true, false]);
    expect(out.map((b) => b.words)).toEqual([6, 10, 1, 1]);
  });

  it('counts a removed repeat as article text only when the expected text repeats it', () => {
    const [twice, once] = classifyRemoved(
      [
        {
          rule: 'duplicate-paragraph',
          tag: 'P',
          text: 'Cyclists had asked for separated lanes since a series of crashes on the ring road.',
        },
        {
          rule: 'duplicate-paragraph',
          tag: 'P',
          text: 'The council approved eleven kilometres of protected cycle lanes on Tuesday evening.',
        },
      ],
      EXPECTED,
    );
    expect([twice?.articleText, once?.articleText]).toEqual([true, false]);
  });

  it('prints per-rule figures for a corpus (npm run trace:reader)', async () => {
    const { stdout } = await execFileAsync('npx', ['tsx', 'bench/reader/drop-trace.ts', '--corpus=web', '--pages=12'], {
      cwd: new URL('../../', import.meta.url),
      maxBuffer: 8 * 1024 * 1024,
    });
    expect(stdout).toMatch(/Drop trace, corpus web, 12 pages/);
    expect(stdout).toMatch(/mean F1: Readability alone [01]\.\d{3}, aeq [01]\.\d{3}/);
    expect(stdout).toMatch(/^rule +\| pages \| blocks \| words \| article blocks/m);
  }, 120_000);

  it('refuses an unknown corpus', async () => {
    const run = execFileAsync('npx', ['tsx', 'bench/reader/drop-trace.ts', '--corpus=nope'], {
      cwd: new URL('../../', import.meta.url),
    });
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--corpus must be one of/) });
  });
});
