import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/**
 * A real HTTP server on 127.0.0.1 serving the cited pages of the analysis tests: the fixture pages
 * by name (`/page/page-en.html`), a plain page without structured data (`/plain/<any>`, so the rules
 * leave its type open), numbered copies of it (`/copy/<n>`), recorded pages of test/fixtures
 * (`/recorded/real/bing/modern/x.html.gz?status=503&server=cloudflare`: gunzipped, with the status and
 * `Server` header they were recorded with), and 404 for anything else.
 */
export interface PagesServer {
  base: string;
  close(): Promise<void>;
}

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/analysis/${name}`, import.meta.url));

export const PLAIN_PAGE_TEXT =
  'Runners with a history of knee pain often choose cushioned ' +
  'shoes. Cushioned running shoes reduce the impact forces that ' +
  'travel through the knees during long runs. A wide toe box helps ' +
  'runners with broad feet, and a firm heel counter keeps the ' +
  'foot stable on long downhill sections.';

function plainPage(title: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
    `</head><body><article><h1>${title}</h1><p>${PLAIN_PAGE_TEXT}</p></article></body></html>`
  );
}

export function startPagesServer(): Promise<PagesServer> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const named = /^\/page\/([\w.-]+\.html)$/.exec(url);
    if (named?.[1] && fs.existsSync(new URL(`../fixtures/analysis/${named[1]}`, import.meta.url))) {
      // No charset in the header: the reader finds it in the page (UTF-8 or EUC-KR).
      res.writeHead(200, { 'content-type': 'text/html' }).end(fixture(named[1]));
      return;
    }
    const recorded = /^\/recorded\/((?:[\w-]+\/)*[\w.-]+\.html(?:\.gz)?)(?:\?(.*))?$/.exec(url);
    const file = recorded?.[1] ? new URL(`../fixtures/${recorded[1]}`, import.meta.url) : null;
    if (recorded && file && fs.existsSync(file)) {
      const q = new URLSearchParams(recorded[2] ?? '');
      const raw = fs.readFileSync(file);
      const headers: Record<string, string> = { 'content-type': 'text/html' };
      if (q.get('server')) headers.server = q.get('server') ?? '';
      res
        .writeHead(Number(q.get('status') ?? 200), headers)
        .end(file.pathname.endsWith('.gz') ? zlib.gunzipSync(raw) : raw);
      return;
    }
    if (url.startsWith('/plain/') || url.startsWith('/copy/')) {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(plainPage(`Knee-friendly running shoes ${url.split('/').pop() ?? ''}`));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        base: `http://127.0.0.1:${port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(() => r()));
        },
      });
    });
  });
}
