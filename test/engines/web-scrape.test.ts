import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/web/${name}`, import.meta.url));

/** A real page server on loopback: the sandbox fetches loopback URLs as asked (docs/contract.md#sandbox-scope). */
async function startPageServer(): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    switch (req.url) {
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fixture('article.html'));
        return;
      case '/korean':
        // No charset in the header: the page's own meta tag says euc-kr.
        res.writeHead(200, { 'content-type': 'text/html' }).end(fixture('korean-euc-kr.html'));
        return;
      case '/old':
        res.writeHead(301, { location: '/moved' }).end();
        return;
      case '/moved':
        res.writeHead(302, { location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/final/page` }).end();
        return;
      case '/final/page': {
        const gzip = /gzip/.test(String(req.headers['accept-encoding']));
        const body = gzip ? zlib.gzipSync(fixture('base-href.html')) : fixture('base-href.html');
        res
          .writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          })
          .end(body);
        return;
      }
      case '/report.pdf':
        res
          .writeHead(200, { 'content-type': 'application/pdf' })
          .end(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'));
        return;
      default:
        res
          .writeHead(404, { 'content-type': 'text/html' })
          .end('<html><head><title>Not Found</title></head><body><h1>Not Found</h1></body></html>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

const fastRetries = () =>
  writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });

describe('WEB_SCRAPE end to end', () => {
  let svc: RunningService;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  beforeAll(async () => {
    pages = await startPageServer();
    svc = await startService({ AEQ_CONFIG: fastRetries() });
  });
  afterAll(async () => {
    await svc.stop();
    await pages.close();
  });

  it('reads a UTF-8 page from a local server with browser headers', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `${pages.url}/article` } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.title).toBe('Choosing a Trail Running Shoe');
    expect(r.response.markdown).toContain('## Protection and drop');
    expect(r.response.sources).toEqual([
      { position: 1, url: `${pages.url}/article`, label: 'Choosing a Trail Running Shoe' },
    ]);
    expect(r.response.images[0]).toEqual({
      url: `${pages.url}/media/lead-trail-shoes.jpg`,
      alt: '',
      width: 1200,
      height: 630,
      source: 'og',
    });
    expect(r.response.finalUrl).toBe(`${pages.url}/article`);
    const headers = pages.seen.at(-1) ?? {};
    expect(headers['user-agent']).toMatch(/^Mozilla\/5\.0 .*Chrome\//);
    expect(headers['accept-language']).toBe('en-US,en;q=0.9');
    expect(headers.accept).toMatch(/^text\/html,application\/xhtml\+xml/);
  });

  it('reads an EUC-KR page', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `${pages.url}/korean` } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.text).toContain('눈이 쌓인 길에서는 아이젠과 스패츠를 반드시 착용해야 합니다.');
    expect(r.response.language).toBe('ko');
  });

  it('follows a redirect chain, decompresses gzip and records the final URL', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `${pages.url}/old` } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.finalUrl).toBe(`${pages.url}/final/page`);
    expect(r.response.sources[0].url).toBe(`${pages.url}/final/page`);
    expect(r.response.text).toContain('The widget server reads its settings from a single file');
    // <base href> still wins over the final URL for relative images.
    expect(r.response.images.map((i: { url: string }) => i.url)).toContain(
      'https://cdn.example.org/docs/v2/diagrams/overview.svg.png',
    );
  });

  it('fails a PDF with ENGINE_FAILED', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `${pages.url}/report.pdf` } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe('ENGINE_FAILED: The engine request failed.');
  });

  it('fails a missing page with ENGINE_NO_RESULT', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `${pages.url}/no-such-page` } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
  });

  it('reads https://example.com/guide through the simulator', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: 'https://example.com/guide' } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.title).toBe('Guide');
    expect(r.response.sources).toEqual([{ position: 1, url: 'https://example.com/guide', label: 'Guide' }]);
    expect(r.response.canonicalUrl).toBe('https://example.com/guide');
    expect(r.response.images.map((i: { url: string }) => i.url)).toEqual([
      'https://example.com/images/guide-lead.jpg',
      'https://example.com/images/guide-1280.jpg',
    ]);
    expect(r.response.markdown).toMatch(/^# Guide\n/);
    expect(r.response.markdown).not.toContain('pixel.gif');
    const again = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: 'https://example.com/guide' } });
    expect(again.response.markdown).toBe(r.response.markdown);
  });

  it('fails with ENGINE_FAILED when every attempt meets a Cloudflare challenge', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: 'https://example.com/x?sandbox:captcha' } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe('ENGINE_FAILED: The engine request failed.');
  });

  it('fails with ENGINE_NO_RESULT for sandbox:empty (the page does not exist)', async () => {
    const r = await runTask(svc, {
      taskType: 'WEB_SCRAPE',
      payload: { url: 'https://example.com/sandbox:empty/page' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
  });

  it('recovers from sandbox:flaky=1 on the next attempt', async () => {
    const r = await runTask(svc, {
      taskType: 'WEB_SCRAPE',
      payload: { url: 'https://example.com/flaky-news?sandbox:flaky=1' },
    });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.title).toBe('Flaky news');
  });
});

describe('WEB_SCRAPE with private targets refused', () => {
  let svc: RunningService;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  beforeAll(async () => {
    pages = await startPageServer();
    svc = await startService({ AEQ_READER_ALLOW_PRIVATE: '0', AEQ_CONFIG: fastRetries() });
  });
  afterAll(async () => {
    await svc.stop();
    await pages.close();
  });

  it('fails a loopback URL with BAD_PAYLOAD saying what to change, without fetching it', async () => {
    const before = pages.seen.length;
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `${pages.url}/article` } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe('BAD_PAYLOAD: payload.url must point to a host that resolves to a public address.');
    expect(pages.seen.length).toBe(before);
  });

  it('still reads public URLs through the simulator', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: 'https://example.com/guide' } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.title).toBe('Guide');
  });
});
