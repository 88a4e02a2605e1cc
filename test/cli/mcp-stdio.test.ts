import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { secondTenantKey, stdioMcpClient, structured, TOOL_NAMES } from '../helpers/mcp.js';
import { mcpToolTests, type McpRig } from '../helpers/mcp-suite.js';
import { fastConfig, startService, TEST_KEY, tempDir, type RunningService } from '../helpers/service.js';

const INTERNAL = 'internal-token-for-mcp-stdio-0123';

/**
 * `aeq mcp` over stdio, the real CLI spawned by the SDK's stdio client: pointed at a running service with AEQ_URL
 * and AEQ_API_KEY (the desktop assistant's configuration), and with --sandbox (a service inside the command).
 */
describe('aeq mcp: MCP over stdio', () => {
  let svc: RunningService;
  let client: Client;
  let other: Client;
  const stderr: string[] = [];
  const transportErrors: unknown[] = [];
  beforeAll(async () => {
    svc = await startService({ AEQ_INTERNAL_TOKEN: INTERNAL, AEQ_CONFIG: fastConfig(tempDir()) });
    const otherKey = await secondTenantKey(svc, INTERNAL, 'stdiotenant');
    client = await stdioMcpClient([], { AEQ_URL: svc.url, AEQ_API_KEY: TEST_KEY }, { stderr });
    // A line on stdout that is not JSON-RPC reaches the client as a transport error.
    client.onerror = (e) => transportErrors.push(e);
    other = await stdioMcpClient([], { AEQ_URL: svc.url, AEQ_API_KEY: otherKey });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await other?.close();
    await svc?.stop();
  });

  const rig = (): McpRig => ({ svc, client, other });
  mcpToolTests(rig);

  it('writes nothing but JSON-RPC on stdout, and never the key on stderr', () => {
    expect(transportErrors).toEqual([]);
    const err = stderr.join('');
    expect(err).toContain('aeq mcp: serving on stdio');
    expect(err).not.toContain(TEST_KEY);
  });

  it('--sandbox serves an embedded sandbox service: ask CHATBOT_A answers with sources', async () => {
    const dir = tempDir();
    const errors: unknown[] = [];
    const sandboxed = await stdioMcpClient(['--sandbox', '--sandbox-dir', `${dir}/store`], {}, { cwd: dir });
    sandboxed.onerror = (e) => errors.push(e);
    try {
      expect((await sandboxed.listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      const a = structured(
        await sandboxed.callTool({
          name: 'ask',
          arguments: { taskType: 'CHATBOT_A', payload: { prompt: 'best running shoes' } },
        }),
      );
      expect(a.task.status).toBe('COMPLETED');
      expect(a.response.sources.length).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await sandboxed.close();
    }
  }, 120_000);

  it('without a service or a key it says what is missing and exits 2, writing nothing on stdout', async () => {
    const cwd = tempDir();
    const noUrl = await runCli(['mcp'], { cwd, env: { AEQ_API_KEY: TEST_KEY } });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stdout).toBe('');
    expect(noUrl.stderr).toContain('AEQ_URL');
    const noKey = await runCli(['mcp'], { cwd, env: { AEQ_URL: svc.url } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('AEQ_API_KEY');
  });
});
