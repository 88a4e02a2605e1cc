import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import { envelopeSchema, promptResearchSchema } from '../../src/http/schemas/submission.js';
import { monitorCreateSchema } from '../../src/http/schemas/monitors.js';
import { resourceJson, stepMonitorRun, structured, TOOL_NAMES } from './mcp.js';
import type { RunningService } from './service.js';

/** What the shared tests run against: the service, and an MCP client of the first and of a second tenant. */
export interface McpRig {
  svc: RunningService;
  /** The first tenant's client (the default account's key). */
  client: Client;
  /** A client with another account's key. */
  other: Client;
}

const call = (c: Client, name: string, args: Record<string, unknown>, onprogress?: (p: unknown) => void) =>
  c.callTool({ name, arguments: args }, undefined, {
    timeout: 60_000,
    ...(onprogress ? { onprogress, resetTimeoutOnProgress: true } : {}),
  });

/**
 * The tests every transport passes (HTTP and stdio): list the tools, call each against the real service on the
 * sandbox, progress and budgets, bad arguments as tool errors, and one tenant kept from another's tasks and monitors
 * through tools and resources. Registered inside the transport's describe block.
 */
export function mcpToolTests(rig: () => McpRig): void {
  it('lists every tool, each with an input schema taken from the HTTP API', async () => {
    const { tools } = await rig().client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description?.length ?? 0).toBeGreaterThan(40);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    const ask = byName.get('ask')?.inputSchema.properties as Record<string, any>;
    // The same objects as the API's validation: the engine names and the payload members.
    expect(ask.taskType.enum).toEqual(envelopeSchema.properties.taskType.enum);
    expect(Object.keys(ask.payload.properties)).toEqual(Object.keys(envelopeSchema.properties.payload.properties));
    expect(ask.budgetSeconds).toMatchObject({ minimum: 1, maximum: 300, default: 60 });
    const research = byName.get('prompt_research')?.inputSchema as Record<string, any>;
    expect(research.properties.engines).toEqual(promptResearchSchema.properties.engines);
    expect(byName.get('create_monitor')?.inputSchema).toEqual(monitorCreateSchema);
    expect(byName.get('get_task')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('ask')?.annotations?.readOnlyHint).toBe(false);
  });

  it('ask CHATBOT_A answers with sources; get_task, list_tasks and the resource show that task', async () => {
    const { client } = rig();
    const r = await call(client, 'ask', { taskType: 'CHATBOT_A', payload: { prompt: 'best running shoes' } });
    expect(r.isError).toBeFalsy();
    const a = structured(r);
    expect(a.done).toBe(true);
    expect(a.task.status).toBe('COMPLETED');
    expect(a.response.text.length).toBeGreaterThan(20);
    expect(a.response.sources.length).toBeGreaterThan(0);
    expect(a.response.sources[0].url).toMatch(/^https?:\/\//);
    expect(a.resource).toBe(`aeq://tasks/${a.task.id}`);

    const got = structured(await call(client, 'get_task', { id: a.task.id }));
    expect(got.task).toEqual(a.task);
    expect(got.response).toEqual(a.response);

    const listed = structured(await call(client, 'list_tasks', { order: 'desc', include: 'result', limit: 50 }));
    const mine = listed.tasks.find((t: any) => t.task.id === a.task.id);
    expect(mine.response.text).toBe(a.response.text);

    // The flat rows of the bulk export: this task among them, with its answer and cited URLs; a cap of one row
    // says where to resume.
    const exported = structured(await call(client, 'export_tasks', { maxRows: 1000 }));
    const row = exported.rows.find((x: any) => x.task_id === a.task.id);
    expect(row).toMatchObject({ engine: 'CHATBOT_A', status: 'COMPLETED', answer: a.response.text });
    expect(row.cited_urls.split(' ')).toEqual(a.response.sources.map((s: any) => s.url));
    const one = structured(await call(client, 'export_tasks', { maxRows: 1 }));
    expect(one.rows).toHaveLength(1);
    if (exported.rows.length > 1) expect(one.nextAfter).toBe(one.rows[0].task_id);

    const read = await client.readResource({ uri: a.resource });
    expect(read.contents[0]?.mimeType).toBe('application/json');
    const view = resourceJson(read);
    expect(view.task.id).toBe(a.task.id);
    expect(view.response.sources).toEqual(a.response.sources);

    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'aeq://tasks/{id}',
      'aeq://monitors/{id}/latest-run',
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((x) => x.uri)).toContain(a.resource);
  });

  it('sends progress notifications while it waits, and answers once the task has ended', async () => {
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const r = await call(
      rig().client,
      'ask',
      { taskType: 'CHATBOT_A', payload: { prompt: 'progress please sandbox:delay=2000' }, budgetSeconds: 30 },
      (p) => seen.push(p as (typeof seen)[number]),
    );
    const a = structured(r);
    expect(a.done).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    expect(seen[0]).toMatchObject({ total: 30 });
    expect(seen[0]?.message).toContain(a.task.id);
  });

  it('a budget of 1 s on a slow prompt returns the task id at once; wait_for_task then gets the answer', async () => {
    const { client } = rig();
    const started = Date.now();
    const r = structured(
      await call(client, 'ask', {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'slow one sandbox:delay=5000' },
        budgetSeconds: 1,
      }),
    );
    const took = Date.now() - started;
    expect(r.done).toBe(false);
    expect(['QUEUED', 'PROCESSING']).toContain(r.task.status);
    expect(r.next).toContain('wait_for_task');
    expect(took).toBeLessThan(3000);

    const again = structured(await call(client, 'wait_for_task', { id: r.task.id, budgetSeconds: 30 }));
    expect(again.done).toBe(true);
    expect(again.task.status).toBe('COMPLETED');
    expect(again.response.text.length).toBeGreaterThan(0);
  });

  it('submit_batch answers one result per item, a refused item on its own', async () => {
    const { client } = rig();
    const r = structured(
      await call(client, 'submit_batch', {
        tasks: [
          { taskType: 'SEARCH_A', payload: { query: 'pydantic v2' } },
          { taskType: 'CHATBOT_A', payload: { prompt: 'hello', country: 'CN' } },
        ],
      }),
    );
    expect(r.batch.id).toEqual(expect.any(String));
    expect(r.results).toHaveLength(2);
    expect(r.results[0].success).toBe(true);
    expect(r.results[1].success).toBe(false);
    expect(r.results[1].error.code).toBe('REGION_UNSUPPORTED');
    const w = structured(await call(client, 'wait_for_task', { id: r.results[0].task.id }));
    expect(w.done).toBe(true);
  });

  it('prompt_research and source_influence submit and wait for their results', async () => {
    const { client } = rig();
    const research = structured(
      await call(client, 'prompt_research', { seed: 'running shoes', country: 'US', limit: 5, budgetSeconds: 55 }),
    );
    expect(research.done).toBe(true);
    expect(research.task.taskType).toBe('PROMPT_RESEARCH');
    expect(research.response.questions.length).toBeGreaterThan(0);

    const influence = structured(
      await call(client, 'source_influence', {
        answer: 'Pydantic v2 rewrote its core in Rust [1].',
        citations: ['https://docs.example.dev/v2'],
        budgetSeconds: 55,
      }),
    );
    expect(influence.done).toBe(true);
    expect(influence.task.taskType).toBe('SOURCE_INFLUENCE');
    expect(influence.response.sources).toHaveLength(1);
    // Both analyses read pages and run models on the sandbox: well past the default test time on a busy machine.
  }, 120_000);

  it('monitors: create, list, pause, resume, run, metrics, signals and the latest-run resource', async () => {
    const { client, svc } = rig();
    const created = structured(
      await call(client, 'create_monitor', {
        name: 'shoes',
        prompts: ['best running shoes'],
        engines: ['CHATBOT_A'],
        brand: { name: 'Hoka' },
        competitors: [{ name: 'Nike' }],
      }),
    );
    const id = created.monitor.id as string;
    expect(created.monitor.status).toBe('active');
    const listed = structured(await call(client, 'list_monitors', {}));
    expect(listed.monitors.map((m: any) => m.id)).toContain(id);
    expect(structured(await call(client, 'pause_monitor', { id })).monitor.status).toBe('paused');
    expect(structured(await call(client, 'resume_monitor', { id })).monitor.status).toBe('active');

    const noRun = await rig()
      .client.readResource({ uri: `aeq://monitors/${id}/latest-run` })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(noRun).toBeInstanceOf(McpError);
    expect((noRun as McpError).code).toBe(-32002);

    const started = structured(await call(client, 'run_monitor_now', { id }));
    expect(started.run.trigger).toBe('manual');
    expect(started.resource).toBe(`aeq://monitors/${id}/latest-run`);
    await stepMonitorRun(svc, id);

    const metrics = structured(await call(client, 'monitor_metrics', { id }));
    expect(metrics.monitorId).toBe(id);
    expect(metrics.series.length).toBeGreaterThan(0);
    expect(metrics.series[0].engine).toBe('CHATBOT_A');
    const signals = structured(await call(client, 'monitor_signals', { id }));
    expect(Array.isArray(signals.signals)).toBe(true);

    const read = await client.readResource({ uri: started.resource });
    const latest = resourceJson(read);
    expect(latest.run.id).toBe(started.run.id);
    expect(latest.run.status).toBe('completed');
    expect(latest.run.results[0].prompt).toBe('best running shoes');
  });

  it('bad arguments are tool errors naming the field, and the connection goes on', async () => {
    const { client } = rig();
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['ask', { taskType: 'CHATBOT_A' }, 'VALIDATION_ERROR', 'payload'],
      ['ask', { taskType: 'NO_SUCH_ENGINE', payload: { prompt: 'x' } }, 'VALIDATION_ERROR', 'taskType'],
      [
        'ask',
        { taskType: 'CHATBOT_A', payload: { prompt: 'x' }, budgetSeconds: 0 },
        'VALIDATION_ERROR',
        'budgetSeconds',
      ],
      ['wait_for_task', { id: 'x', budgetSeconds: 301 }, 'VALIDATION_ERROR', 'budgetSeconds'],
      ['list_tasks', { since: 'yesterday' }, 'VALIDATION_ERROR', 'since'],
      ['create_monitor', { name: 'x', engines: ['CHATBOT_A'] }, 'VALIDATION_ERROR', 'brand'],
      ['pause_monitor', { id: 'm', extra: 1 }, 'VALIDATION_ERROR', 'extra'],
    ];
    for (const [name, args, code, field] of cases) {
      const r = await call(client, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      const e = structured(r).error;
      expect(e.code).toBe(code);
      expect(e.details.map((d: any) => d.field)).toContain(field);
    }
    // Refused by the API itself: its code and message, with what to do next.
    const region = await call(client, 'ask', { taskType: 'CHATBOT_A', payload: { prompt: 'x', country: 'CN' } });
    expect(region.isError).toBe(true);
    expect(structured(region).error.code).toBe('REGION_UNSUPPORTED');
    const unknown = await call(client, 'get_task', { id: '00000000-0000-4000-8000-000000000000' });
    expect(structured(unknown).error.code).toBe('RESOURCE_NOT_FOUND');
    const noTool = await call(client, 'drop_tables', {});
    expect(noTool.isError).toBe(true);
    expect(structured(noTool).error.code).toBe('UNKNOWN_TOOL');
    const bad = await client.readResource({ uri: 'aeq://tasks/' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(bad).toBeInstanceOf(McpError);
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
  });

  it("a tenant cannot reach another tenant's task or monitor through tools or resources", async () => {
    const { client, other } = rig();
    const mine = structured(
      await call(client, 'ask', { taskType: 'SEARCH_A', payload: { query: 'tenant one secret query' } }),
    );
    const monitor = structured(
      await call(client, 'create_monitor', {
        name: 'private',
        prompts: ['best crm'],
        engines: ['CHATBOT_A'],
        brand: { name: 'Acme' },
      }),
    ).monitor;
    const taskId = mine.task.id as string;

    for (const [name, args] of [
      ['get_task', { id: taskId }],
      ['wait_for_task', { id: taskId, budgetSeconds: 1 }],
      ['pause_monitor', { id: monitor.id }],
      ['resume_monitor', { id: monitor.id }],
      ['run_monitor_now', { id: monitor.id }],
      ['monitor_metrics', { id: monitor.id }],
      ['monitor_signals', { id: monitor.id }],
    ] as const) {
      const r = await call(other, name, args);
      expect(r.isError, name).toBe(true);
      expect(structured(r).error.code, name).toBe('RESOURCE_NOT_FOUND');
    }
    for (const uri of [`aeq://tasks/${taskId}`, `aeq://monitors/${monitor.id}/latest-run`]) {
      const e = await other.readResource({ uri }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, uri).toBeInstanceOf(McpError);
      expect((e as McpError).code).toBe(-32002);
    }
    const theirTasks = structured(await call(other, 'list_tasks', { q: 'tenant one secret' })).tasks;
    expect(theirTasks).toEqual([]);
    const theirRows = structured(await call(other, 'export_tasks', {})).rows as Array<{ task_id: string }>;
    expect(theirRows.map((r) => r.task_id)).not.toContain(taskId);
    expect(structured(await call(other, 'list_monitors', {})).monitors).toEqual([]);
    const { resources } = await other.listResources();
    expect(resources.map((x) => x.uri).join(' ')).not.toContain(taskId);
    // The owner still sees both: the refusals above were the account rule, not a broken id.
    expect(structured(await call(client, 'get_task', { id: taskId })).task.id).toBe(taskId);
    expect(structured(await call(client, 'monitor_signals', { id: monitor.id })).monitorId).toBe(monitor.id);
  });
}
