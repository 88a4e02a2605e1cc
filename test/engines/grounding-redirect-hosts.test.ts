import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveGroundingChunks } from '../../src/engines/chat/grounding-redirects.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/transport/http-transport.js';
import { UndiciTransport } from '../../src/transport/undici-transport.js';

/**
 * The grounding resolver requests a redirect URI only on Google's redirect host or under the engine's own
 * upstream base URL (the simulator in the sandbox): a URI of the answer that names another host is kept as
 * given and never requested, whatever its path looks like.
 */
describe('grounding redirects are pinned to Google redirect host and the configured upstream', () => {
  let server: http.Server;
  let origin = '';
  const seen: string[] = [];
  const agent = new Agent();
  const real = new UndiciTransport('test-exit', agent, false);
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(302, { location: 'https://publisher.example/article' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await agent.close();
  });

  it('a redirect-looking URI on another host is not requested; the upstream base route is', async () => {
    const chunks = [
      // Under the configured upstream base: requested.
      { index: 0, uri: `${origin}/gemini/grounding-api-redirect/own`, title: 'publisher.example' },
      // The same server, outside the upstream's base path: another route, not requested.
      { index: 1, uri: `${origin}/grounding-api-redirect/outside-base`, title: null },
      // Dot segments that climb out of the base path once parsed: not requested.
      { index: 2, uri: `${origin}/gemini/../grounding-api-redirect/dots`, title: null },
      // User-info naming Google before the real host: not requested.
      {
        index: 3,
        uri: `${origin.replace('//', '//vertexaisearch.cloud.google.com@')}/gemini/grounding-api-redirect/userinfo`,
        title: null,
      },
    ];
    const resolved = await resolveGroundingChunks(real, chunks, AbortSignal.timeout(5000), `${origin}/gemini`);
    expect(seen).toEqual(['/gemini/grounding-api-redirect/own']);
    expect(resolved.get(0)).toEqual({ url: 'https://publisher.example/article', resolution: 'redirect', status: 302 });
    for (const c of chunks.slice(1)) expect(resolved.get(c.index)).toEqual({ url: c.uri, resolution: 'direct' });
  });

  it('with the real upstream, only https://vertexaisearch.cloud.google.com/grounding-api-redirect/ is requested', async () => {
    // Records what would go on the wire (no network here) and answers every request with a redirect.
    const asked: string[] = [];
    const recording: HttpTransport = {
      exitId: 'recording',
      async request(req: HttpRequest): Promise<HttpResponse> {
        asked.push(req.url);
        return {
          status: 302,
          headers: { location: 'https://publisher.example/p' },
          url: req.url,
          body: Buffer.alloc(0),
          text: () => '',
          json: () => null,
        };
      },
    };
    const google = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC';
    const others = [
      `${origin}/grounding-api-redirect/loopback`,
      'http://169.254.169.254/grounding-api-redirect/metadata',
      'https://vertexaisearch.cloud.google.com.evil.example/grounding-api-redirect/lookalike',
      'http://vertexaisearch.cloud.google.com/grounding-api-redirect/plain-http',
      'https://vertexaisearch.cloud.google.com:8443/grounding-api-redirect/other-port',
      'https://evil.example/x?next=/grounding-api-redirect/',
    ];
    const chunks = [google, ...others].map((uri, index) => ({ index, uri, title: null }));
    const resolved = await resolveGroundingChunks(
      recording,
      chunks,
      AbortSignal.timeout(5000),
      'https://generativelanguage.googleapis.com',
    );
    expect(asked).toEqual([google]);
    expect(resolved.get(0)).toEqual({ url: 'https://publisher.example/p', resolution: 'redirect', status: 302 });
    for (const [i, uri] of others.entries()) expect(resolved.get(i + 1)).toEqual({ url: uri, resolution: 'direct' });
  });
});
