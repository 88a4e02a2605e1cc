import { createHash } from 'node:crypto';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

/** One prompt of a study file, with the engine and country it names (if it names them). */
export interface PromptRow {
  /** Position among the file's prompts, from 0: part of each task's idempotency key. */
  row: number;
  prompt: string;
  engine?: string;
  country?: string;
}

export type InputFormat = 'csv' | 'jsonl' | 'lines';

/** A study file that cannot be read as prompts; the message names the file and the line. */
export class InputError extends Error {}

/** Column names taken as the prompt, in order of preference (spreadsheets call it many things). */
const PROMPT_COLUMNS = ['prompt', 'query', 'question', 'keyword'];

export function formatOf(file: string, explicit?: string): InputFormat {
  if (explicit) {
    if (explicit === 'csv' || explicit === 'jsonl' || explicit === 'lines') return explicit;
    throw new InputError(`--format must be csv, jsonl or lines, got ${JSON.stringify(explicit)}`);
  }
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  return 'lines';
}

/** The study's fingerprint: the same file gives the same task keys, so a re-run resumes instead of repeating. */
export function fileHash(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

export function readPrompts(name: string, content: string, format: InputFormat): PromptRow[] {
  const rows =
    format === 'csv' ? fromCsv(name, content) : format === 'jsonl' ? fromJsonl(name, content) : fromLines(content);
  if (rows.length === 0) throw new InputError(`${name}: no prompts`);
  return rows;
}

function fromLines(content: string): PromptRow[] {
  return content
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((prompt, row) => ({ row, prompt }));
}

function fromJsonl(name: string, content: string): PromptRow[] {
  const out: PromptRow[] = [];
  content
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        throw new InputError(`${name}:${i + 1}: not JSON (${(e as Error).message})`);
      }
      if (typeof value === 'string') {
        out.push(checked(name, i + 1, { row: out.length, prompt: value }));
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new InputError(`${name}:${i + 1}: expected a string or an object with "prompt"`);
      out.push(fromRecord(name, i + 1, out.length, value as Record<string, unknown>));
    });
  return out;
}

function fromCsv(name: string, content: string): PromptRow[] {
  let records: Array<{ record: Record<string, unknown>; info: { lines: number } }>;
  try {
    records = parse(content, {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      info: true,
    });
  } catch (e) {
    throw new InputError(`${name}: ${(e as Error).message}`);
  }
  const first = records[0]?.record;
  if (first && !PROMPT_COLUMNS.some((c) => c in first))
    throw new InputError(
      `${name}: the first row must name the columns: a prompt column (${PROMPT_COLUMNS.join(', ')}), ` +
        'and optionally engine and country',
    );
  return records.map((r, i) => fromRecord(name, r.info.lines, i, r.record));
}

function fromRecord(name: string, line: number, row: number, r: Record<string, unknown>): PromptRow {
  const column = PROMPT_COLUMNS.find((c) => typeof r[c] === 'string' && r[c] !== '');
  const text = (k: string) => (typeof r[k] === 'string' && r[k].trim() !== '' ? r[k].trim() : undefined);
  const out: PromptRow = { row, prompt: column ? String(r[column]) : '' };
  const engine = text('engine');
  const country = text('country');
  if (engine) out.engine = engine.toUpperCase();
  if (country) out.country = country.toUpperCase();
  return checked(name, line, out);
}

function checked(name: string, line: number, r: PromptRow): PromptRow {
  if (r.prompt.trim() === '') throw new InputError(`${name}:${line}: empty prompt`);
  if (r.country && !/^[A-Z]{2}$/.test(r.country))
    throw new InputError(`${name}:${line}: country must be a two-letter code, got ${JSON.stringify(r.country)}`);
  return r;
}
