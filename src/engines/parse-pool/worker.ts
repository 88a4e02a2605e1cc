import { workerData } from 'node:worker_threads';
import type { ParserTable } from './parsers.js';
import { toWireError, type ParseReply, type ParseTask } from './wire.js';

/** What the pool hands every worker: the module of its parse table, when it is not the service's own (tests). */
export interface ParseWorkerData {
  parsers?: string;
}

/**
 * The parse pool's worker: runs one registered parse per task and answers with data, never a
 * thrown value (see wire.ts). Loaded by piscina from dist/ as compiled, or through
 * `worker-tsx.mjs` from the TypeScript sources.
 */
const table = await loadTable((workerData as ParseWorkerData | null)?.parsers);

async function loadTable(url: string | undefined): Promise<ParserTable> {
  const mod = (url ? await import(url) : await import('./parsers.js')) as { PARSERS: ParserTable };
  return mod.PARSERS;
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
