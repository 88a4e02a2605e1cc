import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMcpClient, secondTenantKey, structured } from '../helpers/mcp.js';
import { mcpToolTests, type McpRig } from '../helpers/mcp-suite.js';
import { fastConfig, startService, TEST_KEY, tempDir, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

const INTERNAL = 'internal-token-for-mcp-http-0123';

/** A JSON-RPC initialize, as an MCP client's first POST. */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP over streamable HTTP: POST /mcp', () => {
  let svc: RunningService;
  let client: Client;
  let other: Client;
  let otherKey: string;
  beforeAll(async () => {
    svc = await startService({ AEQ_INTERNAL_TOKEN: INTERNAL, AEQ_CONFIG: fastConfig(tempDir()) });
    otherKey = await secondTenantKey(svc, INTERNAL, 'othertenant');
    client = await httpMcpClient(svc.url, TEST_KEY);
    other = await httpMcpClient(svc.url, otherKey);
  });
  afterAll(async () => {
    await client?.close();
    await other?.close();
    await svc?.stop();
  });

  const rig = (): McpRig => ({ svc, client, other });
  mcpToolTests(rig);

  it('answers 401 MISSING_API_KEY without a key or with a wrong one, before any MCP', async () => {
    for (const headers of [MCP_HEADERS, { ...MCP_HEADERS, authorization: 'Bearer not-a-key-0123456789' }]) {
      const r = await svc.raw('POST', '/mcp', JSON.stringify(INITIALIZE), headers);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('MISSING_API_KEY');
    }
    await expect(httpMcpClient(svc.url, 'wrong-key-0123456789')).rejects.toThrow();
  });

  it('is stateless: no session id, and GET and DELETE answer 405', async () => {
    const auth = { authorization: `Bearer ${TEST_KEY}` };
    const r = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...auth },
      body: JSON.stringify(INITIALIZE),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('mcp-session-id')).toBeNull();
    expect(await r.text()).toContain('"serverInfo"');
    for (const method of ['GET', 'DELETE']) {
      const x = await svc.raw(method, '/mcp', undefined, { ...auth, accept: 'text/event-stream' });
      expect(x.status, method).toBe(405);
      expect(x.body.error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('refuses a JSON-RPC batch: its calls would pass the in-flight limits, which count requests', async () => {
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${TEST_KEY}` };
    const batch = await svc.raw('POST', '/mcp', JSON.stringify([INITIALIZE, INITIALIZE]), auth);
    expect(batch.status).toBe(400);
    expect(batch.body.error.code).toBe('VALIDATION_ERROR');
    // One message still serves.
    expect((await svc.raw('POST', '/mcp', JSON.stringify(INITIALIZE), auth)).status).toBe(200);
  });

  it('refuses a browser page of another origin and a Host name that is not loopback (DNS rebinding)', async () => {
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${TEST_KEY}` };
    const origin = await svc.raw('POST', '/mcp', JSON.stringify(INITIALIZE), {
      ...auth,
      origin: 'https://evil.example',
    });
    expect(origin.status).toBe(403);
    expect(origin.body.error.code).toBe('FORBIDDEN_ORIGIN');
    const same = await svc.raw('POST', '/mcp', JSON.stringify(INITIALIZE), { ...auth, origin: svc.url });
    expect(same.status).toBe(200);
    // fetch() will not send another Host: a raw request does what a rebound page's browser does.
    const { request } = await import('node:http');
    const port = new URL(svc.url).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { ...auth, host: `evil.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(INITIALIZE));
    });
    expect(status).toBe(403);
  });

  it("a key's requests act as its account even on a client opened with another key's session", async () => {
    // Stateless: each request is authenticated on its own; there is no session another key could ride on.
    const mine = structured(
      await client.callTool({ name: 'ask', arguments: { taskType: 'SEARCH_A', payload: { query: 'q1' } } }),
    );
    const r = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${otherKey}`, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_task', arguments: { id: mine.task.id } },
      }),
    });
    const text = await r.text();
    expect(text).toContain('RESOURCE_NOT_FOUND');
    expect(text).not.toContain('"q1"');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await svc.raw('GET', '/openapi.json')).body;
    expect(doc.paths['/mcp'].post.summary).toContain('MCP');
    expect(Object.keys(doc.paths['/mcp'].post.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
  });
});

describe('MCP over HTTP while the service stops', () => {
  it('a wait in flight answers the task id at once and the service stops without waiting for its budget', async () => {
    const svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()) });
    const client = await httpMcpClient(svc.url, TEST_KEY);
    const progressed = new Promise<void>((resolve) => {
      void client
        .callTool(
          {
            name: 'ask',
            arguments: { taskType: 'CHATBOT_A', payload: { prompt: 'stop sandbox:delay=30000' }, budgetSeconds: 120 },
          },
          undefined,
          { timeout: 60_000, onprogress: () => resolve() },
        )
        .then(
          (r) => answers.push(r),
          (e: unknown) => answers.push(e),
        );
    });
    const answers: unknown[] = [];
    await progressed;
    const started = Date.now();
    await svc.stop();
    expect(Date.now() - started).toBeLessThan(10_000);
    await until(
      'the call settled',
      async () => answers.length,
      (n) => n === 1,
      5000,
    );
    const a = structured(answers[0]);
    expect(a.done).toBe(false);
    expect(a.task.id).toEqual(expect.any(String));
    await client.close();
  });
});
