import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { csvRecord } from '../text/csv.js';
import type { Cell, ExportColumn } from './task-rows.js';

/** The formats of an export (docs/exports.md): one column set, three encodings. */
export const EXPORT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

/**
 * Encodes pages of rows as they come, yielding the bytes of each page before the next is read: the memory held is one
 * page, whatever the export's size. Parquet writes one row group per page (hyparquet-writer's incremental writer,
 * flushed after each group) and its footer at the end.
 */
export async function* encodeRows(
  format: ExportFormat,
  columns: readonly ExportColumn[],
  pages: AsyncIterable<Cell[][]>,
): AsyncGenerator<string | Uint8Array> {
  if (format === 'parquet') {
    yield* parquetPages(columns, pages);
    return;
  }
  if (format === 'csv') yield csvRecord(columns.map((c) => c.name));
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    yield rows.map((row) => (format === 'csv' ? csvLine(row) : jsonLine(columns, row))).join('');
  }
}

function jsonLine(columns: readonly ExportColumn[], row: readonly Cell[]): string {
  const o: Record<string, Cell> = {};
  for (const [i, c] of columns.entries()) o[c.name] = row[i] ?? null;
  return `${JSON.stringify(o)}\n`;
}

/** A CSV cell: empty for null (unknown), `true`/`false`, numbers as they are, text formula-escaped by csvRecord. */
function csvLine(row: readonly Cell[]): string {
  return csvRecord(row.map((v) => (v === null ? '' : typeof v === 'boolean' ? String(v) : v)));
}

/** The Parquet schema: a flat message of optional columns (an engine that cannot tell leaves a null). */
function parquetSchema(columns: readonly ExportColumn[]) {
  return [
    { name: 'root', num_children: columns.length },
    ...columns.map((c) => {
      const base = { name: c.name, repetition_type: 'OPTIONAL' as const };
      if (c.type === 'STRING') return { ...base, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const };
      if (c.type === 'INT64') return { ...base, type: 'INT64' as const };
      if (c.type === 'DOUBLE') return { ...base, type: 'DOUBLE' as const };
      return { ...base, type: 'BOOLEAN' as const };
    }),
  ];
}

async function* parquetPages(
  columns: readonly ExportColumn[],
  pages: AsyncIterable<Cell[][]>,
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  // The writer's buffer is handed on after each row group and at the end, then reused from its start.
  const writer = new ByteWriter();
  const take = () => {
    if (writer.index > 0) out.push(new Uint8Array(writer.buffer.slice(0, writer.index)));
    writer.index = 0;
  };
  Object.assign(writer, { flush: take, finish: take });
  const parquet = new ParquetWriter({ writer, schema: parquetSchema(columns), createdBy: 'aeq export' });
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    const columnData = columns.map((c, i) => ({
      name: c.name,
      data: rows.map((r) => {
        const v = r[i] ?? null;
        // INT64 takes a bigint; a count is an integer well inside 2^53.
        return c.type === 'INT64' && typeof v === 'number' ? BigInt(Math.trunc(v)) : v;
      }),
    }));
    await parquet.write({ columnData, rowGroupSize: rows.length });
    yield* out.splice(0);
  }
  await parquet.finish();
  yield* out.splice(0);
}
