import type { Envelope } from '@aeq/client';
import { ENGINE_TASK_TYPES, canonicalTaskType } from '../../domain/engine-catalog.js';
import { InputError, type PromptRow } from './input.js';

/** One task of a study: a prompt on an engine in a country (null: the engine's default region). */
export interface StudyItem {
  /** The idempotency key: the study file's hash, the row, the engine and the country. */
  key: string;
  row: number;
  prompt: string;
  engine: string;
  country: string | null;
}

export interface PlanOptions {
  fileHash: string;
  engines: string[];
  countries: string[];
}

/** Engines a study can ask: every task type the generic endpoints take (analysis kinds have their own commands). */
export const STUDY_ENGINES: readonly string[] = ENGINE_TASK_TYPES;

/**
 * Crosses the rows with `--engines` and `--countries`; a row's own engine or country column takes the place of the
 * option for that row. The order is the file's, then the engines', then the countries'.
 */
export function planStudy(rows: PromptRow[], o: PlanOptions): StudyItem[] {
  // Each engine and country once, whatever the spelling: a repeat would count tasks that share one key.
  const given = [...new Set(o.engines.map((e) => canonicalEngine(e, '--engines')))];
  const countriesGiven = [...new Set(o.countries)];
  const items: StudyItem[] = [];
  for (const r of rows) {
    const engines = r.engine ? [canonicalEngine(r.engine, `prompt ${r.row + 1}`)] : given;
    if (engines.length === 0) throw new InputError(`prompt ${r.row + 1} names no engine and no --engines was given`);
    const countries: Array<string | null> = r.country
      ? [r.country]
      : countriesGiven.length > 0
        ? countriesGiven
        : [null];
    for (const engine of engines)
      for (const country of countries)
        items.push({
          key: `aeq-run:${o.fileHash}:${r.row}:${engine}:${country ?? '-'}`,
          row: r.row,
          prompt: r.prompt,
          engine,
          country,
        });
  }
  return items;
}

/** The engine's canonical name (an alias such as SEARCH_A_AIO gives SEARCH_A, so the task keys stay the same). */
function canonicalEngine(name: string, where: string): string {
  const t = canonicalTaskType(name);
  if (!t || !STUDY_ENGINES.includes(t))
    throw new InputError(`${where}: unknown engine ${name}; one of ${STUDY_ENGINES.join(', ')}`);
  return t;
}

/** The submission envelope of an item; the web-page reader takes the prompt as its URL. */
export function envelopeOf(item: StudyItem): Envelope {
  const payload: Record<string, unknown> =
    item.engine === 'WEB_SCRAPE' ? { url: item.prompt } : { prompt: item.prompt };
  if (item.country) payload.country = item.country;
  return { taskType: item.engine, payload, idempotencyKey: item.key } as Envelope;
}
