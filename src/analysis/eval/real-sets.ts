import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SupportLabel } from '../source-influence/judge/labels.js';
import type { EvalLanguage } from './eval-set.js';

/**
 * Public labelled sets of (claim, page, label) that nobody here wrote (docs/analysis.md#real-labelled-sets). Their
 * page text may not be committed, so they are read at evaluation time from fetched snapshots of their repositories
 * (bare git directories under the corpora dir, `<owner>+<name>/repo`), at a pinned commit; only the features the
 * judge measured and the labels are kept in the repository (bench/judge/features.jsonl).
 *
 * Each set has a fixed split: `train` (the learned judge is fitted and calibrated there) and `heldout` (reported,
 * never tuned on). A split is decided by the pair's id alone, so it cannot drift with code or order.
 */
export type RealSplit = 'train' | 'heldout';

export interface RealPair {
  set: string;
  id: string;
  split: RealSplit;
  language: EvalLanguage;
  claim: string;
  page: { title: string; text: string };
  gold: SupportLabel;
  /** Pairs of one group (one claim against several pages) share a split, so no claim is on both sides. */
  group?: string;
}

export interface RealSetSource {
  name: string;
  language: EvalLanguage;
  repo: string;
  commit: string;
  /** Files read, each with the split its pairs go to (`byId`: a fixed share of ids goes to train). */
  files: Array<{ path: string; split: RealSplit | 'byId' }>;
  licence: string;
  describe: string;
  parse: (text: string, path: string) => Array<Omit<RealPair, 'set' | 'split' | 'language'>>;
}

/** The share of a `byId` file's pairs that trains; the rest is held out. */
const TRAIN_SHARE = 0.6;

function splitById(set: string, id: string): RealSplit {
  const h = createHash('sha256').update(`${set}\u0000${id}`).digest();
  return (h.readUInt32BE(0) / 2 ** 32 < TRAIN_SHARE ? 'train' : 'heldout') satisfies RealSplit;
}

const WICE_LABELS: Readonly<Record<string, SupportLabel>> = {
  supported: 'supported',
  partially_supported: 'partial',
  not_supported: 'unsupported',
};

/** WiCE: a sentence of a Wikipedia article against the web page it cites, as the page's sentence list. */
function parseWice(text: string): Array<Omit<RealPair, 'set' | 'split' | 'language'>> {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const r = JSON.parse(line) as { label: string; claim: string; evidence: string[]; meta: { id: string } };
      const gold = WICE_LABELS[r.label];
      if (!gold) throw new Error(`WiCE ${r.meta.id}: label ${r.label}`);
      const [first, ...rest] = r.evidence;
      const title = first?.startsWith('(meta data) TITLE:') ? first.slice('(meta data) TITLE:'.length).trim() : '';
      return { id: r.meta.id, claim: r.claim, page: { title, text: (title ? rest : r.evidence).join('\n') }, gold };
    });
}

const FACTCHECK_LABELS: Readonly<Record<string, SupportLabel>> = {
  'completely-support': 'supported',
  'partially-support': 'partial',
  irrelevant: 'unsupported',
  refute: 'contradicted',
};

/** Factcheck-GPT: claims split out of real ChatGPT answers, each against the web passages a search found for it. */
function parseFactcheckGpt(text: string): Array<Omit<RealPair, 'set' | 'split' | 'language'>> {
  const claims = new Map<string, number>();
  const perClaim = new Map<number, number>();
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line, i) => {
      const r = JSON.parse(line) as { claim: string; evidence: string; stance: string };
      const gold = FACTCHECK_LABELS[r.stance];
      if (!gold) throw new Error(`Factcheck-GPT line ${i + 1}: stance ${r.stance}`);
      let c = claims.get(r.claim);
      if (c === undefined) {
        c = claims.size + 1;
        claims.set(r.claim, c);
      }
      const k = (perClaim.get(c) ?? 0) + 1;
      perClaim.set(c, k);
      return { id: `c${c}-e${k}`, group: `c${c}`, claim: r.claim, page: { title: '', text: r.evidence }, gold };
    });
}

/**
 * The sets. No Korean set is among them: none reachable here has labels of real Korean claims against real pages
 * under a licence that allows this use. KLUE-NLI is reserved for the project's own checks; KorNLI's XNLI part is a
 * translation of XNLI, whose licence is non-commercial (CC BY-NC 4.0); KorFactScore is CC BY-NC 4.0; LEAP NLI
 * states no licence. docs/analysis.md#real-labelled-sets says what Korean labels rest on meanwhile.
 */
export const REAL_SETS: readonly RealSetSource[] = [
  {
    name: 'wice-dev',
    language: 'en',
    repo: 'ryokamoi/wice',
    commit: 'ddeb6c183665e2a20c5f03c5aa07f03888b9870f',
    files: [{ path: 'data/entailment_retrieval/claim/dev.jsonl', split: 'byId' }],
    licence: 'annotations ODC-BY 1.0; page text CC BY-SA (Wikipedia) and Common Crawl terms of use (not committed)',
    describe: 'Wikipedia sentences against the web pages they cite (supported / partially / not supported)',
    parse: parseWice,
  },
  {
    name: 'factcheck-gpt',
    language: 'en',
    repo: 'yuxiaw/Factcheck-GPT',
    commit: 'a9e6a04a953ad880806529c504a679dd1ad06528',
    files: [{ path: 'subtasks/subtask3_claim_evidence_stance.jsonl', split: 'byId' }],
    licence: "Apache-2.0 (the repository); the quoted web passages keep their sites' terms (not committed)",
    describe: 'claims from real ChatGPT answers against web search passages (support / partial / irrelevant / refute)',
    parse: parseFactcheckGpt,
  },
];

/** Where fetched snapshots live: AEQ_CORPORA_DIR, else the library's mirror beside the checkout. */
export function corporaDir(repoRoot: string): string {
  return process.env.AEQ_CORPORA_DIR ?? join(repoRoot, '..', '.mirror');
}

function snapshotOf(dir: string, repo: string): string {
  return join(dir, repo.replace('/', '+'), 'repo');
}

export function available(dir: string, s: RealSetSource): boolean {
  return existsSync(snapshotOf(dir, s.repo));
}

/** Every pair of a set, read from its snapshot at the pinned commit; a missing snapshot or file says how to get it. */
export function readRealSet(dir: string, s: RealSetSource): RealPair[] {
  const gitDir = snapshotOf(dir, s.repo);
  if (!existsSync(gitDir))
    throw new Error(
      `${s.name}: no snapshot of ${s.repo} at ${gitDir} (fetch github:${s.repo}, or set AEQ_CORPORA_DIR)`,
    );
  return s.files.flatMap((f) => {
    const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${s.commit}:${f.path}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return s.parse(text, f.path).map((p) => ({
      ...p,
      set: s.name,
      language: s.language,
      split: f.split === 'byId' ? splitById(s.name, p.group ?? p.id) : f.split,
    }));
  });
}
