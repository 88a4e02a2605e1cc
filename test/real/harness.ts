/**
 * Shared pieces of the real-input corpus tests (test/fixtures/real): a loopback server that replays
 * recorded upstream answers, the scores, and the table each test prints.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

/** One recorded upstream answer. `body` is the bytes as the upstream sent them (already decompressed). */
export interface RecordedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: Buffer | string;
}

export interface ReplayServer {
  url: string;
  /** Every request the server saw, in order (method, path with query, headers). */
  seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/**
 * Serves `answer(method, pathWithQuery, body)` on 127.0.0.1; an unknown request is a 599 so a
 * test sees at once that it asked for something the recording does not hold.
 */
export async function startReplayServer(
  answer: (req: { method: string; url: string; body: string }) => RecordedAnswer | undefined,
): Promise<ReplayServer> {
  const seen: ReplayServer['seen'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
      seen.push(entry);
      const a = answer(entry);
      if (!a) {
        res.writeHead(599, { 'content-type': 'text/plain' }).end(`no recording for ${entry.method} ${entry.url}`);
        return;
      }
      res.writeHead(a.status ?? 200, a.headers ?? {}).end(a.body);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Reads a corpus file; `.gz` files are stored compressed and returned decompressed. */
export function readCorpusFile(file: string | URL): Buffer {
  const b = fs.readFileSync(file);
  return String(file).endsWith('.gz') ? zlib.gunzipSync(b) : b;
}

export { bagOfWordsF1, words } from '../../bench/reader/score.js';

/** Prints an aligned table (the corpus tests' report); numbers are shown with `digits` decimals. */
export function printTable(title: string, rows: ReadonlyArray<Record<string, string | number>>, digits = 3): string {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | number | undefined) =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(digits)) : (v ?? '');
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ');
  const out = [
    `\n${title}`,
    line(cols),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map((r) => line(cols.map((c) => cell(r[c])))),
  ].join('\n');
  console.log(out);
  return out;
}

/** A saved page of a web corpus: served at `/<id>` with its recorded charset. */
export interface SavedPage {
  id: string;
  file: string;
  charset: string;
}

/** Serves each saved page of `dir` at `/<id>`, as the site it was saved from sent it. */
export function startSavedPageServer(pages: readonly SavedPage[], dir: URL): Promise<ReplayServer> {
  const byPath = new Map(pages.map((p) => [`/${p.id}`, p]));
  return startReplayServer(({ url }) => {
    const page = byPath.get(url.split('?', 1)[0] ?? '');
    if (!page) return undefined;
    return {
      headers: { 'content-type': `text/html; charset=${page.charset}` },
      body: readCorpusFile(new URL(page.file, dir)),
    };
  });
}

/** A service (sandbox off) whose WEB_SCRAPE reads `parallel` pages at a time through the host's own connection. */
export function startWebScrapeService(parallel: number): Promise<RunningService> {
  const config = writeConfig(tempDir(), {
    scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100, pollMs: 50 },
    engines: { WEB_SCRAPE: { concurrency: parallel, timeoutMs: 60_000 } },
    exitAddresses: [{ id: 'direct', country: 'US', maxConcurrent: parallel }],
  });
  return startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config });
}

/** Attempts a task gets in the error corpora, so that "retried" and "not retried" differ in upstream calls. */
export const MAX_ATTEMPTS = 3;
/** Failure kinds a retry may fix: every other kind ends the task after one call (docs/engines.md#failure-order). */
export const RETRIED_KINDS: ReadonlySet<string> = new Set([
  'RATE_LIMITED',
  'UPSTREAM_BLOCKED',
  'UPSTREAM_ERROR',
  'AUTH_FAILED',
  'LAYOUT_CHANGED',
  'TIMEOUT',
]);
/** Failure kinds that rest the exit address (and the account) they came through. */
export const RESTING_KINDS: ReadonlySet<string> = new Set(['RATE_LIMITED', 'UPSTREAM_BLOCKED']);

/** The failure kind of the last failed attempt in these service log lines. */
export function failureKind(lines: string[]): string | undefined {
  for (const l of [...lines].reverse()) {
    try {
      const j = JSON.parse(l) as { msg?: string; kind?: string };
      if (j.msg === 'engine attempt failed' && j.kind) return j.kind;
    } catch {
      // not a JSON log line
    }
  }
  return undefined;
}

/** Consecutive rests (cooldown strikes) over every upstream, summed over the pool's resources. */
export function restStrikes(list: ReadonlyArray<{ cooldowns: Map<string, { strikes: number }> }>): number {
  return list.reduce((n, r) => n + [...r.cooldowns.values()].reduce((m, c) => m + c.strikes, 0), 0);
}

/** Markdown links replaced by their text. */
export const unlink = (md: string) => md.replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1');
