import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import type { ParserTable } from './parsers.js';
import { toWireError, type ParseReply, type ParseTask } from './wire.js';

/**
 * What the pool hands every worker: the module of its parse table, when it is not the service's own (tests), and the
 * modules of the tables the layers above added (`addParserTable`).
 */
export interface ParseWorkerData {
  parsers?: string;
  added?: string[];
  /** This thread's nice value (19 unless `AEQ_PARSE_NICE` says otherwise). */
  nice?: number;
}

/**
 * The parse pool's worker: runs one registered parse per task and answers with data, never a
 * thrown value (see wire.ts). Loaded by piscina from dist/ as compiled, or through
 * `worker-tsx.mjs` from the TypeScript sources.
 */
const data = (workerData as ParseWorkerData | null) ?? {};
lowerPriority(data.nice ?? 19);
const table = await loadTable(data.parsers, data.added ?? []);

/**
 * Parsing yields the CPU to the event loop: this thread runs at the lowest priority (nice 19; `AEQ_PARSE_NICE`), so
 * that when the loop wakes (a request, a claim, a finished fetch) the kernel runs it at once even
 * with every core parsing, while parsing still gets all the CPU the loop leaves idle. Linux keeps
 * a nice value per thread; `/proc/thread-self` names this thread's id (piscina's `niceIncrement`
 * does the same through an optional native module). Elsewhere the thread keeps the process's
 * priority.
 */
function lowerPriority(nice: number): void {
  try {
    const tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    if (Number.isInteger(tid) && tid > 0 && nice > 0) os.setPriority(tid, nice);
  } catch {
    // not Linux, or not permitted: parsing competes with the loop on equal terms
  }
}

async function loadTable(url: string | undefined, added: readonly string[]): Promise<ParserTable> {
  const mod = (url ? await import(url) : await import('./parsers.js')) as { PARSERS: ParserTable };
  const tables = await Promise.all(added.map(async (u) => ((await import(u)) as { PARSERS: ParserTable }).PARSERS));
  return Object.assign({}, mod.PARSERS, ...tables) as ParserTable;
}

export default async function runParse(task: ParseTask): Promise<ParseReply<unknown>> {
  const parse = table[task.name];
  if (!parse) return { ok: false, error: { type: 'error', name: 'Error', message: `no parser named ${task.name}` } };
  try {
    return { ok: true, value: await parse(task.input as never) };
  } catch (e) {
    return { ok: false, error: toWireError(e) };
  }
}
