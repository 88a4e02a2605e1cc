import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const execFileAsync = promisify(execFile);
const ROOT = new URL('../../', import.meta.url);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-reader-scripts-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const write = (name: string, value: unknown) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
};

describe("another extractor's texts scored beside aeq's (npm run score:reader)", () => {
  // Three pages: the other extractor reads the first whole, half of the second, nothing of the third (missing).
  const expected = [
    { id: 'a', file: 'a.html.gz', charset: 'utf-8', url: 'https://example.org/a', expectedText: 'one two three four' },
    {
      id: 'b',
      file: 'b.html.gz',
      charset: 'utf-8',
      url: 'https://example.org/b',
      expectedText: 'five six seven eight',
    },
    { id: 'c', file: 'c.html.gz', charset: 'utf-8', url: 'https://example.org/c', expectedText: 'nine ten' },
  ];
  fs.mkdirSync(path.join(tmp, 'corpus'));
  fs.writeFileSync(path.join(tmp, 'corpus', 'expected.json'), JSON.stringify(expected));
  const texts = write('texts.json', [
    { id: 'a', text: 'One two, three four.', ms: 10 },
    { id: 'b', text: 'five six', ms: 20, error: null },
  ]);
  const trace = write('trace.json', {
    rows: [
      { id: 'a', 'aeq f1': 0.5, 'readability f1': 0.4 },
      { id: 'b', 'aeq f1': 0.95, 'readability f1': 0.91 },
      { id: 'c', 'aeq f1': 0.2, 'readability f1': 0.2 },
    ],
  });
  const run = (...args: string[]) =>
    execFileAsync('npx', ['tsx', 'bench/reader/score-texts.ts', ...args], { cwd: ROOT });

  it('gives its mean F1 and pages at F1 >= 0.9, and the better of the two per page with a trace', async () => {
    const { stdout } = await run(`--dir=${path.join(tmp, 'corpus')}`, `--texts=${texts}`, `--trace=${trace}`, '--list');
    // a: 1.0; b: precision 1, recall 0.5, so 2/3; c: nothing read.
    expect(stdout).toContain('other: mean F1 0.556 (P 0.667, R 0.500), F1 >= 0.9 1 (33.3%); 0 raised, 1 missing');
    expect(stdout).toContain('aeq: mean F1 0.550, F1 >= 0.9 1 (33.3%)');
    expect(stdout).toContain('Readability alone: mean F1 0.503, F1 >= 0.9 1 (33.3%)');
    // a passes with the other extractor, b with aeq; c with neither.
    expect(stdout).toContain('(chosen with the answer): F1 >= 0.9 2 (66.7%)');
    expect(stdout).toMatch(/^b other 0\.667 \(P 1\.000 R 0\.500\) aeq 0\.950/m);
    // Listed when either side is under 0.9: a for aeq's read, not the other extractor's.
    expect(stdout).toMatch(/^a other 1\.000 \(P 1\.000 R 1\.000\) aeq 0\.500/m);
  }, 60_000);

  it('refuses a trace of another corpus, and a run without its texts or corpus', async () => {
    const other = write('other-trace.json', { rows: [{ id: 'zz', 'aeq f1': 1, 'readability f1': 1 }] });
    await expect(
      run(`--dir=${path.join(tmp, 'corpus')}`, `--texts=${texts}`, `--trace=${other}`),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/the trace has no row for a/) });
    await expect(run(`--dir=${path.join(tmp, 'corpus')}`)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--texts is required/),
    });
    await expect(run(`--texts=${texts}`)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/give one of --corpus and --dir/),
    });
  }, 60_000);
});

describe('a corpus script without its snapshot', () => {
  it('says what to fetch, in one line, exit status 2', async () => {
    const out = path.join(tmp, 'never');
    const run = execFileAsync(
      'npx',
      ['tsx', 'bench/reader/fundus-corpus.ts', `--out=${out}`, `--repo=${path.join(tmp, 'no-snapshot')}`],
      { cwd: ROOT },
    );
    await expect(run).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^no snapshot of flairNLP\/fundus at .*: fetch github:flairNLP\/fundus first/),
    });
    expect(fs.existsSync(out)).toBe(false);
  }, 60_000);
});
