import type {
  AeqClient,
  Envelope,
  MonitorCreate,
  PromptResearchRequest,
  SourceInfluenceRequest,
  TaskStatus,
  TasksQuery,
} from '@aeq/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answer } from './results.js';
import { monitorRunUri, taskUri } from './resource-uris.js';
import {
  askInput,
  BUDGET_DEFAULT_SECONDS,
  createMonitorInput,
  exportTasksInput,
  listMonitorsInput,
  listTasksInput,
  monitorIdInput,
  monitorRangeInput,
  promptResearchInput,
  sourceInfluenceInput,
  submitBatchInput,
  taskIdInput,
  waitInput,
} from './tool-schemas.js';
import { waitWithin, type Waited } from './wait.js';

/** What a tool call runs with: the caller's client (their key, so their account only), and the call's channel. */
export interface ToolContext {
  client: AeqClient;
  /** Aborted when the call is cancelled or its connection closes: a wait stops at once. */
  signal: AbortSignal;
  /** Sends an MCP progress notification when the call asked for them (a no-op otherwise). */
  progress(p: { progress: number; total: number; message: string }): Promise<void>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  /** Reads only: an assistant may call it without asking the user (MCP's readOnlyHint). */
  readOnly: boolean;
  /** Runs with arguments the input schema has validated (defaults filled in). */
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<CallToolResult>;
}

/** An API answer without its `success: true`, which says nothing a tool result does not. */
function body(value: object): Record<string, unknown> {
  const { success: _success, ...rest } = value as Record<string, unknown>;
  return rest;
}

const TWENTY_FOUR_HOURS_MS = 24 * 3600_000;

/** The first `n` JSONL rows of a streamed export; the rest of the stream is cancelled, never read. */
async function firstRows(body: ReadableStream<Uint8Array>, n: number): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let tail = '';
  try {
    while (rows.length < n) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = (tail + decoder.decode(value, { stream: true })).split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines)
        if (line !== '' && rows.length < n) rows.push(JSON.parse(line) as Record<string, unknown>);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return rows;
}

/**
 * Waits for a task within the call's budget, with a progress notification at every poll, and answers its result
 * (done: true) or, when the budget ran out, its id and status (done: false) so the model can wait again.
 */
async function waitedAnswer(ctx: ToolContext, id: string, budgetSeconds: number): Promise<CallToolResult> {
  const waited = await waitWithin(ctx.client, id, budgetSeconds * 1000, {
    signal: ctx.signal,
    onStep: (s) =>
      ctx.progress({
        progress: s.elapsedMs / 1000,
        total: budgetSeconds,
        message: `task ${id} is ${s.status ?? 'unknown'} after ${Math.round(s.elapsedMs / 1000)} s`,
      }),
  });
  return answer(waitedView(id, waited));
}

function waitedView(id: string, w: Waited): Record<string, unknown> {
  const resource = taskUri(id);
  if (w.done) return { done: true, ...body(w.view), resource };
  const status: TaskStatus | 'UNKNOWN' = w.view.task?.status ?? 'UNKNOWN';
  return {
    done: false,
    task: w.view.task,
    resource,
    next:
      `The task is still ${status} after ${Math.round(w.elapsedMs / 1000)} s (the budget). It goes on running: ` +
      `call wait_for_task with {"id": "${id}"} to wait again, or get_task later.`,
  };
}

const budgetOf = (args: Record<string, unknown>): number =>
  typeof args.budgetSeconds === 'number' ? args.budgetSeconds : BUDGET_DEFAULT_SECONDS;

/** The arguments without the tool's own members: what goes to the API as the request body. */
function requestOf(args: Record<string, unknown>): Record<string, unknown> {
  const { budgetSeconds: _budget, ...rest } = args;
  return rest;
}

const idOf = (args: Record<string, unknown>): string => String(args.id);

const optional = (args: Record<string, unknown>, key: string): string | undefined =>
  typeof args[key] === 'string' ? args[key] : undefined;

/** Submits, then waits within the budget; a submission the API refuses throws its AeqError (a tool error). */
async function submitAndWait(
  ctx: ToolContext,
  args: Record<string, unknown>,
  submit: () => Promise<{ task?: { id?: string } }>,
): Promise<CallToolResult> {
  const accepted = await submit();
  const id = accepted.task?.id;
  if (!id) throw new Error('the service accepted the request without a task id');
  return waitedAnswer(ctx, id, budgetOf(args));
}

function range(args: Record<string, unknown>): { from?: string; to?: string } {
  const from = optional(args, 'from');
  const to = optional(args, 'to');
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** Every tool. Each calls one route of the API through the caller's client: the API's auth and accounts apply. */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'ask',
    title: 'Ask one engine and wait',
    description:
      'Asks one answer engine, chatbot or search engine a question and waits for its answer (text, markdown and ' +
      'the cited sources), up to budgetSeconds. taskType names the engine (e.g. CHATBOT_A, ANSWER_ENGINE_A, ' +
      'SEARCH_A); payload carries the question (`prompt` for chatbots and answer engines, `query` for search ' +
      'engines, `url` for WEB_SCRAPE) and optionally `country` (ISO 3166-1 alpha-2). A task that FAILED is an answer ' +
      "too: its `error` and `failure` say why. If the budget runs out you get the task id (done: false): don't ask " +
      'again, call wait_for_task.',
    inputSchema: askInput,
    readOnly: false,
    run: (args, ctx) => submitAndWait(ctx, args, () => ctx.client.submit(requestOf(args) as Envelope)),
  },
  {
    name: 'submit_batch',
    title: 'Submit a batch of tasks',
    description:
      'Submits 1 to 500 tasks at once (mixed engines and countries) and returns at once with one result per item, in ' +
      'order (its task id, or why that item was refused) and the batch id. Does not wait: read each task with ' +
      'get_task or wait_for_task, or all of them with list_tasks.',
    inputSchema: submitBatchInput,
    readOnly: false,
    run: async (args, ctx) => {
      const { results, batches } = await ctx.client.submitBatch(args.tasks as Envelope[]);
      return answer({ batch: batches[0] ?? null, results });
    },
  },
  {
    name: 'get_task',
    title: 'Get a task',
    description:
      "A task's state now, without waiting: QUEUED, PROCESSING, COMPLETED (with its `response`: text, markdown, " +
      'sources) or FAILED (with `error` and `failure`). Tasks are kept 24 hours.',
    inputSchema: taskIdInput,
    readOnly: true,
    run: async (args, ctx) => answer({ ...body(await ctx.client.get(idOf(args))), resource: taskUri(idOf(args)) }),
  },
  {
    name: 'wait_for_task',
    title: 'Wait for a task',
    description:
      'Waits until a task has ended (COMPLETED or FAILED), up to budgetSeconds, and returns its result; when the ' +
      'budget runs out first, returns its status (done: false) and you may call again.',
    inputSchema: waitInput,
    readOnly: true,
    run: (args, ctx) => waitedAnswer(ctx, idOf(args), budgetOf(args)),
  },
  {
    name: 'list_tasks',
    title: 'List tasks',
    description:
      "The account's tasks created since a time (default: the last 24 hours, all that are kept), a page at a time, " +
      'oldest first (order: desc for newest first), optionally of one status, engine or text. include: "result" adds ' +
      "each task's answer or error. Pass nextCursor as cursor for the next page.",
    inputSchema: listTasksInput,
    readOnly: true,
    run: async (args, ctx) => {
      const include = new Set(optional(args, 'include')?.split(',') ?? []);
      const query: TasksQuery = {
        since: optional(args, 'since') ?? new Date(Date.now() - TWENTY_FOUR_HOURS_MS).toISOString(),
        includeResult: include.has('result'),
        includeRequest: include.has('request'),
      };
      for (const key of ['until', 'engine', 'q', 'cursor'] as const) {
        const v = optional(args, key);
        if (v !== undefined) query[key] = v;
      }
      if (typeof args.limit === 'number') query.limit = args.limit;
      if (args.order === 'asc' || args.order === 'desc') query.order = args.order;
      if (typeof args.status === 'string') query.status = args.status as TaskStatus;
      return answer(body(await ctx.client.tasks(query)));
    },
  },
  {
    name: 'export_tasks',
    title: 'Export tasks as flat rows',
    description:
      "The account's tasks of a window as flat rows, oldest first: engine, status, request, answer, cited and read " +
      'URLs, searches, products, region, failure (the columns of GET /v1/export, docs/exports.md). Returns at most ' +
      'maxRows rows; when more follow, nextAfter resumes after the last. For a whole warehouse load, fetch ' +
      'GET /v1/export as CSV or Parquet instead.',
    inputSchema: exportTasksInput,
    readOnly: true,
    run: async (args, ctx) => {
      const maxRows = typeof args.maxRows === 'number' ? args.maxRows : 200;
      const query: Parameters<typeof ctx.client.exportStream>[0] = {
        since: optional(args, 'since') ?? new Date(Date.now() - TWENTY_FOUR_HOURS_MS).toISOString(),
        format: 'jsonl',
      };
      for (const key of ['until', 'after', 'status', 'engine'] as const) {
        const v = optional(args, key);
        if (v !== undefined) query[key] = v;
      }
      const rows = await firstRows(await ctx.client.exportStream(query), maxRows + 1);
      const kept = rows.slice(0, maxRows);
      const more = rows.length > maxRows;
      const last = kept.at(-1);
      return answer({
        rows: kept,
        nextAfter: more && last ? (last.task_id as string) : null,
      });
    },
  },
  {
    name: 'prompt_research',
    title: 'Prompt research',
    description:
      'Finds the questions people ask AI assistants about a topic (seed: a short product or category term), ' +
      'ranked by demand, with a ready monitor set of prompts, for country KR or US. Waits up to budgetSeconds for ' +
      'the result.',
    inputSchema: promptResearchInput,
    readOnly: false,
    run: (args, ctx) =>
      submitAndWait(ctx, args, () => ctx.client.promptResearch(requestOf(args) as PromptResearchRequest)),
  },
  {
    name: 'source_influence',
    title: 'Source influence',
    description:
      'Measures how much each cited source shaped an answer: give the answer text (with markers [1], [2] …) and the ' +
      'URLs it cites in marker order; the service reads each page and ranks the sources by influence. Waits up to ' +
      'budgetSeconds for the result.',
    inputSchema: sourceInfluenceInput,
    readOnly: false,
    run: (args, ctx) =>
      submitAndWait(ctx, args, () => ctx.client.sourceInfluence(requestOf(args) as SourceInfluenceRequest)),
  },
  {
    name: 'create_monitor',
    title: 'Create a monitor',
    description:
      'Creates a visibility monitor: it asks the prompts on the engines on a schedule and tracks how often the ' +
      "brand's name (and its competitors) appear in the answers. brand is {name, aliases?, domains?}; schedule is " +
      '{cron, timezone?} (default: daily). Returns the monitor with its id and next run.',
    inputSchema: createMonitorInput,
    readOnly: false,
    run: async (args, ctx) => answer(body(await ctx.client.createMonitor(args as MonitorCreate))),
  },
  {
    name: 'list_monitors',
    title: 'List monitors',
    description: "The account's monitors, a page at a time (pass nextCursor as cursor for the next page).",
    inputSchema: listMonitorsInput,
    readOnly: true,
    run: async (args, ctx) => {
      const cursor = optional(args, 'cursor');
      const page = {
        ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
        ...(cursor === undefined ? {} : { cursor }),
      };
      return answer(body(await ctx.client.monitors(page)));
    },
  },
  {
    name: 'pause_monitor',
    title: 'Pause a monitor',
    description: "Pauses a monitor's schedule: no run starts until it is resumed. Its runs and figures stay.",
    inputSchema: monitorIdInput,
    readOnly: false,
    run: async (args, ctx) => answer(body(await ctx.client.updateMonitor(idOf(args), { status: 'paused' }))),
  },
  {
    name: 'resume_monitor',
    title: 'Resume a monitor',
    description: "Resumes a paused monitor's schedule from its next slot.",
    inputSchema: monitorIdInput,
    readOnly: false,
    run: async (args, ctx) => answer(body(await ctx.client.updateMonitor(idOf(args), { status: 'active' }))),
  },
  {
    name: 'run_monitor_now',
    title: 'Run a monitor now',
    description:
      'Starts a run of a monitor at once, outside its schedule (MONITOR_RUN_IN_PROGRESS while one is open). Its ' +
      'result is the resource aeq://monitors/{id}/latest-run when it has completed.',
    inputSchema: monitorIdInput,
    readOnly: false,
    run: async (args, ctx) =>
      answer({ ...body(await ctx.client.runMonitorNow(idOf(args))), resource: monitorRunUri(idOf(args)) }),
  },
  {
    name: 'monitor_metrics',
    title: "A monitor's metrics",
    description:
      "A monitor's visibility figures per run, engine and country (mention rate, share of voice, position, with 95% " +
      'intervals), for runs scheduled in [from, to) (RFC 3339; default: all).',
    inputSchema: monitorRangeInput,
    readOnly: true,
    run: async (args, ctx) => answer(body(await ctx.client.monitorMetrics(idOf(args), range(args)))),
  },
  {
    name: 'monitor_signals',
    title: "A monitor's signals",
    description:
      "A monitor's signals, newest first: changes of its figures that held against their baseline (which brand, " +
      'engine, country and figure moved, by how much, since which run).',
    inputSchema: monitorRangeInput,
    readOnly: true,
    run: async (args, ctx) => answer(body(await ctx.client.monitorSignals(idOf(args), range(args)))),
  },
];
