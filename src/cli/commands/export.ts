import type { AeqClient, ListedTask, TaskStatus } from '@aeq/client';
import { csvRecord } from '../csv.js';

const COLUMNS = ['created_at', 'task_id', 'type', 'status', 'idempotency_key', 'answer', 'cited_urls', 'error'];

/**
 * Every task of the account created since `since`, page after page, with its result: as JSONL (the polling views)
 * or a flat CSV. Returns how many were written.
 */
export async function exportTasks(
  client: AeqClient,
  o: { since: string; format: 'csv' | 'jsonl'; status?: TaskStatus },
  out: NodeJS.WritableStream,
): Promise<number> {
  let cursor: string | undefined;
  let n = 0;
  if (o.format === 'csv') out.write(csvRecord(COLUMNS));
  do {
    const page = await client.tasks({
      since: o.since,
      // Pages of 100 with their results: a page stays a few megabytes even when answers are long.
      limit: 100,
      includeResult: true,
      ...(o.status ? { status: o.status } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const t of page.tasks ?? []) {
      out.write(o.format === 'jsonl' ? `${JSON.stringify(t)}\n` : csvRow(t));
      n++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return n;
}

function csvRow(t: ListedTask): string {
  const r = t.response as { text?: unknown; sources?: Array<{ url?: unknown }> } | undefined;
  const urls = (Array.isArray(r?.sources) ? r.sources : []).map((s) => s.url).filter((u) => typeof u === 'string');
  return csvRecord([
    t.task?.createdAt ?? '',
    t.task?.id ?? '',
    t.task?.taskType ?? '',
    t.task?.status ?? '',
    t.task?.idempotencyKey ?? '',
    typeof r?.text === 'string' ? r.text : '',
    urls.join(' '),
    t.error ?? '',
  ]);
}
