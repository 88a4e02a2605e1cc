import fs from 'node:fs';
import type { AeqClient, Polling, PromptResearchResult, SourceInfluenceResult, TaskStatus } from '@aeq/client';
import type { Command } from 'commander';
import { parseDuration } from '../../accounts/api-keys.js';
import type { Connection } from '../connection.js';
import { UsageError } from '../errors.js';
import { CONNECTION_HELP, connectOptions, intIn, upperList, withConnection } from './options.js';
import { bulkExport, exportTasks } from './export.js';

type Flags = Record<string, unknown> & { json?: boolean };

/**
 * The table printer, loaded by the first command that connects (withClient), where every table of these commands is
 * printed: its column widths (string-width) build an `Intl.Segmenter` as they load, some 35 ms that every process of
 * `aeq serve`, which registers these commands too, paid at its start for a table it never prints.
 */
let table: typeof import('../table.js').table = () => {
  throw new Error('the table printer is loaded by withClient');
};

const TASK_STATUSES: readonly TaskStatus[] = ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'];

/** `aeq tasks get|wait`, `aeq export`, `aeq research`, `aeq influence`: one call of the service each, printed. */
export function registerClientCommands(program: Command): void {
  const tasks = program.command('tasks').description("read tasks by id: one's state and result, or wait for several");
  withConnection(tasks.command('get'))
    .description("a task's state and result (its polling view)")
    .argument('<id>', 'task id')
    .option('--json', 'print the polling view as JSON')
    .addHelpText('after', CONNECTION_HELP)
    .action((id: string, flags: Flags) =>
      withClient(flags, async (c) => {
        const view = await c.client.get(id);
        process.stdout.write(flags.json ? `${JSON.stringify(view)}\n` : taskText(view));
      }),
    );
  withConnection(tasks.command('wait'))
    .description('wait until every task has ended, then print each one (a failed task is a result, not an error)')
    .argument('<ids...>', 'task ids')
    .option('--timeout <duration>', 'give up after this long, e.g. 30m or 2h (at most the 24-hour retention)')
    .option('--json', 'print each polling view as a JSON line')
    .addHelpText('after', CONNECTION_HELP)
    .action((ids: string[], flags: Flags & { timeout?: string }) =>
      withClient(flags, async (c) => {
        const timeoutMs = flags.timeout === undefined ? undefined : durationMs(flags.timeout, '--timeout');
        const views = await waitWithProgress(c.client, ids, timeoutMs);
        if (flags.json) for (const id of ids) process.stdout.write(`${JSON.stringify(views.get(id) ?? null)}\n`);
        else
          process.stdout.write(
            table(
              ['id', 'type', 'status', 'result'],
              ids.map((id) => {
                const v = views.get(id);
                return [id, v?.task?.taskType, v?.task?.status ?? 'GONE', v ? resultLine(v) : 'past its retention'];
              }),
              80,
            ),
          );
      }),
    );

  withConnection(program.command('export'))
    .description('export what the account ran recently: every task since a time, with its result')
    .requiredOption('--since <duration>', 'how far back, e.g. 30m, 2h or 24h (tasks are kept 24 hours)')
    .option('--format <format>', 'csv, jsonl or parquet (parquet: the flat columns of GET /v1/export)', 'jsonl')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--status <status>', 'only tasks in this state: QUEUED, PROCESSING, COMPLETED or FAILED')
    .option('--text <text>', 'only tasks whose prompt, query or URL contains this text (ignoring case)')
    .option('--bulk', 'stream the flat columns of GET /v1/export (docs/exports.md), resumed if the connection breaks')
    .addHelpText('after', CONNECTION_HELP)
    .action(
      (
        flags: Flags & { since: string; format: string; out?: string; status?: string; text?: string; bulk?: boolean },
      ) =>
        withClient(flags, async (c) => {
          if (flags.format !== 'csv' && flags.format !== 'jsonl' && flags.format !== 'parquet')
            throw new UsageError(`--format must be csv, jsonl or parquet, got ${JSON.stringify(flags.format)}`);
          const since = new Date(Date.now() - durationMs(flags.since, '--since')).toISOString();
          const status = flags.status?.toUpperCase();
          if (status !== undefined && !TASK_STATUSES.includes(status as TaskStatus))
            throw new UsageError(
              `--status must be one of ${TASK_STATUSES.join(', ')}, got ${JSON.stringify(flags.status)}`,
            );
          if (flags.bulk || flags.format === 'parquet') {
            if (flags.text !== undefined) throw new UsageError('--text is not a filter of --bulk and parquet exports');
            if (flags.format === 'parquet' && !flags.out && process.stdout.isTTY)
              throw new UsageError('parquet is binary: give --out FILE (or redirect stdout)');
            const target = flags.out ? fs.createWriteStream('', { fd: openForWriting(flags.out) }) : process.stdout;
            const n = await bulkExport(
              c.client,
              { since, format: flags.format, ...(status ? { status } : {}) },
              target,
              (m) => process.stderr.write(`aeq export: ${m}\n`),
            );
            if (flags.out) await new Promise<void>((r) => (target as fs.WriteStream).end(r));
            process.stderr.write(`aeq export: ${n} tasks since ${since}${flags.out ? ` to ${flags.out}` : ''}\n`);
            return;
          }
          const out = flags.out ? fs.createWriteStream('', { fd: openForWriting(flags.out) }) : process.stdout;
          if (flags.text !== undefined && (flags.text.trim() === '' || flags.text.length > 200))
            throw new UsageError('--text must be 1 to 200 characters');
          const o = {
            since,
            format: flags.format,
            ...(status ? { status: status as TaskStatus } : {}),
            ...(flags.text ? { text: flags.text } : {}),
          } as const;
          const n = await exportTasks(c.client, o, out);
          if (flags.out) await new Promise<void>((r) => (out as fs.WriteStream).end(r));
          process.stderr.write(`aeq export: ${n} tasks since ${since}${flags.out ? ` to ${flags.out}` : ''}\n`);
        }),
    );

  withConnection(program.command('research'))
    .description('prompt research: the questions people ask AI assistants about a topic, ranked by demand')
    .argument('<seed>', 'the topic: a short product or category term, 1 to 30 characters')
    .option('--country <code>', 'KR or US', 'US')
    .option('--limit <n>', 'questions to return', intIn(1, 50), 20)
    .option('--monitor-size <n>', 'questions in the monitor set', intIn(1, 50))
    .option('--engines <list>', 'engines of the monitor set', upperList)
    .option('--exclude <terms>', 'comma-separated terms to leave out')
    .option('--brand <name>', 'your brand: questions naming it are left out')
    .option('--json', 'print the whole result as JSON')
    .addHelpText('after', CONNECTION_HELP)
    .action((seed: string, flags: Flags & Record<string, string | number | string[] | undefined>) =>
      withClient(flags, async (c) => {
        const request: Record<string, unknown> = { seed, country: String(flags.country).toUpperCase() };
        if (flags.limit !== undefined) request.limit = flags.limit;
        if (flags.monitorSize !== undefined) request.monitorSize = flags.monitorSize;
        if (flags.engines !== undefined) request.engines = flags.engines;
        if (typeof flags.exclude === 'string') request.exclude = flags.exclude.split(',').map((x) => x.trim());
        if (flags.brand !== undefined) request.brand = flags.brand;
        const view = await submitAndWait(c.client, () => c.client.promptResearch(request as never));
        process.stdout.write(flags.json ? `${JSON.stringify(view)}\n` : researchText(view, c));
      }),
    );

  withConnection(program.command('influence'))
    .description('source influence: how much each cited source shaped an answer')
    .requiredOption('--answer <file>', "a file holding the answer's text (- for stdin)")
    .requiredOption('--citations <urls...>', 'the URLs the answer cites, in the order of its markers [1], [2], …')
    .option('--prompt <text>', 'the question that produced the answer')
    .option('--json', 'print the whole result as JSON')
    .addHelpText('after', CONNECTION_HELP)
    .action((flags: Flags & { answer: string; citations: string[]; prompt?: string }) =>
      withClient(flags, async (c) => {
        const answer = readText(flags.answer, '--answer');
        const request: Record<string, unknown> = { answer, citations: flags.citations };
        if (flags.prompt) request.prompt = flags.prompt;
        const view = await submitAndWait(c.client, () => c.client.sourceInfluence(request as never));
        process.stdout.write(flags.json ? `${JSON.stringify(view)}\n` : influenceText(view, c));
      }),
    );
}

async function withClient(flags: Flags, f: (c: Connection) => Promise<void>): Promise<void> {
  ({ table } = await import('../table.js'));
  const { connect } = await import('../connection.js');
  const c = await connect(connectOptions(flags));
  try {
    await f(c);
  } finally {
    await c.close();
  }
}

/** Opens an output file now, so a bad path is a usage error before any request (not a stream error later). */
function openForWriting(file: string): number {
  try {
    return fs.openSync(file, 'w');
  } catch (e) {
    throw new UsageError(`${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function readText(file: string, option: string): string {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${option} ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? (e as Error).message)}`);
  }
}

function durationMs(text: string, option: string): number {
  const ms = parseDuration(text);
  if (ms === null)
    throw new UsageError(`${option} must be a duration such as 30m, 2h or 1d, got ${JSON.stringify(text)}`);
  return ms;
}

/** Waits for tasks, showing how many have ended on a terminal (nothing on a pipe: the output is the result). */
async function waitWithProgress(client: AeqClient, ids: string[], timeoutMs?: number) {
  const tty = process.stderr.isTTY;
  const views = await client.waitFor(ids, {
    maxPollInterval: 1000,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    onProgress: (p) => {
      if (tty) process.stderr.write(`\r\x1b[Kwaiting: ${p.done} of ${p.total} ended`);
    },
  });
  if (tty) process.stderr.write('\r\x1b[K');
  return views;
}

async function submitAndWait(client: AeqClient, submit: () => Promise<{ task?: { id?: string } }>): Promise<Polling> {
  const accepted = await submit();
  const id = accepted.task?.id;
  if (!id) throw new Error('the service accepted the request without a task id');
  const view = (await waitWithProgress(client, [id])).get(id);
  if (!view) throw new Error(`task ${id} is gone (past its retention)`);
  return view;
}

function resultLine(v: Polling): string {
  if (v.task?.status === 'FAILED')
    return `${v.error ?? ''}${v.failure ? ` (${v.failure.code}: ${v.failure.message})` : ''}`;
  const r = v.response as { text?: unknown; sources?: unknown[] } | undefined;
  if (!r) return '';
  const text = typeof r.text === 'string' ? r.text : '';
  return `${(r.sources ?? []).length} sources; ${text}`;
}

function taskText(v: Polling): string {
  const t = v.task ?? {};
  const lines = [
    `id        ${t.id}`,
    `type      ${t.taskType}`,
    `status    ${t.status}`,
    `created   ${t.createdAt}`,
    `credits   ${v.credits?.creditsCharged ?? 0} charged`,
  ];
  if (t.idempotencyKey) lines.push(`key       ${t.idempotencyKey}`);
  if (v.error) lines.push(`error     ${v.error}`);
  // Why it failed, beside the fixed error string: whose side, the reason, the host and the attempts made.
  if (v.failure) {
    const f = v.failure;
    lines.push(`reason    ${f.code} (${f.origin === 'aeq' ? 'aeq' : 'the upstream'}): ${f.message}`);
    lines.push(`upstream  ${f.upstreamHost ?? '-'}, ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}`);
  }
  const r = v.response as { text?: unknown; sources?: Array<{ url?: string; label?: string }> } | undefined;
  if (typeof r?.text === 'string') lines.push('', r.text);
  if (Array.isArray(r?.sources) && r.sources.length > 0) {
    lines.push('');
    lines.push(
      table(
        ['#', 'source', 'label'],
        r.sources.map((s, i) => [i + 1, s.url, s.label]),
        90,
      ).trimEnd(),
    );
  }
  return `${lines.join('\n')}\n`;
}

function researchText(v: Polling, c: Connection): string {
  if (v.task?.status !== 'COMPLETED') return `prompt research ${v.task?.status}: ${v.error ?? ''}\n`;
  // A completed PROMPT_RESEARCH task's response is its result (the OpenAPI document's PromptResearchResult).
  const r = v.response as PromptResearchResult;
  const qs = r.questions;
  const out = [
    table(
      ['rank', 'question', 'demand', 'tier', 'intent'],
      qs.map((q) => [q.rank, q.text, q.demand.score, q.demand.tier, q.intent]),
      70,
    ),
    `${qs.length} questions; demand from ${r.demandBasis}; monitor set of ${r.monitorSet.size}`,
  ];
  if (r.simulated || c.simulated) out.push('simulated: computed from the sandbox, not from real upstreams');
  return `${out.join('\n')}\n`;
}

function influenceText(v: Polling, c: Connection): string {
  if (v.task?.status !== 'COMPLETED') return `source influence ${v.task?.status}: ${v.error ?? ''}\n`;
  // A completed SOURCE_INFLUENCE task's response is its result (the OpenAPI document's SourceInfluenceResult).
  const r = v.response as SourceInfluenceResult;
  const sources = [...r.sources].sort((a, b) => a.influence.rank - b.influence.rank);
  const pct = (x: number | null) => `${((x ?? 0) * 100).toFixed(1)}%`;
  const out = [
    table(
      ['rank', 'source', 'influence', 'level', 'cited', 'fetch'],
      sources.map((s) => [
        s.influence.rank,
        s.url,
        pct(s.influence.share),
        s.influence.level,
        s.citations.count,
        s.fetch.status,
      ]),
      70,
    ),
    `attributed ${pct(r.summary.attributedShare)} of the answer; citation coverage ` +
      `${pct(r.summary.citationCoverage)}; top source ${r.summary.topSourceId ?? 'none'}`,
  ];
  if (r.simulated || c.simulated) out.push('simulated: computed from the sandbox, not from real upstreams');
  return `${out.join('\n')}\n`;
}
