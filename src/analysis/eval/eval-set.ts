import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupportLabel } from '../source-influence/judge/labels.js';

/**
 * The held-out evaluation set of SOURCE_INFLUENCE support judgements (test/fixtures/analysis/eval/README.md): real
 * public pages and claims labelled by the rubric of docs/analysis.md#labelling-rubric, split into a calibration part
 * and a held-out part when the items were written.
 */
export type EvalLanguage = 'en' | 'ko';
export type EvalSplit = 'calibration' | 'heldout';

interface EvalPage {
  id: string;
  url: string;
  title: string;
  text: string;
}

export interface EvalItem {
  id: string;
  split: EvalSplit;
  claim: string;
  cited: string[];
  sources: Array<{ page: string; label: SupportLabel }>;
  kind: string;
}

export interface EvalSet {
  language: EvalLanguage;
  pages: Map<string, EvalPage>;
  items: EvalItem[];
}

const LABELS = new Set<string>(['supported', 'partial', 'unsupported', 'contradicted']);

function jsonLines(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        throw new Error(`${path}:${i + 1}: not JSON`);
      }
    });
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Reads and checks one language's set; a malformed line stops the run with its place. */
export function loadEvalSet(dir: string, language: EvalLanguage): EvalSet {
  const pages = new Map<string, EvalPage>();
  for (const p of jsonLines(join(dir, language, 'pages.jsonl'))) {
    if (!isObj(p) || typeof p.id !== 'string' || typeof p.text !== 'string')
      throw new Error(`${language} page without id/text`);
    pages.set(p.id, {
      id: p.id,
      url: typeof p.url === 'string' ? p.url : `https://eval.invalid/${p.id}`,
      title: typeof p.title === 'string' ? p.title : '',
      text: p.text,
    });
  }
  const items: EvalItem[] = jsonLines(join(dir, language, 'items.jsonl')).map((raw, line) => {
    if (!isObj(raw)) throw new Error(`${language} item line ${line + 1} is not an object`);
    const x = raw;
    const id = String(x.id);
    const sources = Array.isArray(x.sources) ? (x.sources as Array<Record<string, unknown>>) : [];
    const item: EvalItem = {
      id,
      split: x.split === 'calibration' ? 'calibration' : 'heldout',
      claim: String(x.claim ?? ''),
      cited: Array.isArray(x.cited) ? x.cited.map(String) : [],
      sources: sources.map((s) => ({ page: String(s.page), label: String(s.label) as SupportLabel })),
      kind: String(x.kind ?? ''),
    };
    for (const s of item.sources) {
      if (!pages.has(s.page)) throw new Error(`${id}: unknown page ${s.page}`);
      if (!LABELS.has(s.label)) throw new Error(`${id}: label ${s.label}`);
    }
    for (const c of item.cited)
      if (!item.sources.some((s) => s.page === c)) throw new Error(`${id}: cites ${c}, not among its pages`);
    return item;
  });
  return { language, pages, items };
}
