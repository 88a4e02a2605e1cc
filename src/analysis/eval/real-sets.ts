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
 * never tuned on). A split is decided by the pair's id alone, so it cannot drift with code or order. A set marked
 * `evaluationOnly` is held out whole and untouched: `npm run train:judge` never reads it (not even to print its
 * figures), so no choice of the judge was made with it in view.
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
  /** Held out whole: every pair is `heldout`, and training never reads the set (bench/train-judge.ts). */
  evaluationOnly?: true;
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
 * ExpertQA's attribution judgement of a claim against its cited evidence, as its experts gave it: `Complete`, `Partial`
 * and `Incomplete` (by the experts' written reasons, evidence that does not support the claim). `Missing` (the claim
 * cites nothing), `N/A` (the annotator could not open the page) and no judgement have no pair and are left out.
 */
const EXPERTQA_LABELS: Readonly<Record<string, SupportLabel>> = {
  Complete: 'supported',
  Partial: 'partial',
  Incomplete: 'unsupported',
};

/**
 * The ExpertQA systems whose evidence is the text of a web page a Google search found: retrieve-and-read (GPT-4
 * answers from the pages it cites) and post-hoc citation (GPT-4 answers, each claim then cited to a searched page).
 * `gpt4` and `bing_chat` claims carry URLs only; the `sphere` systems' passages come from a research corpus.
 */
const EXPERTQA_SYSTEMS: ReadonlySet<string> = new Set(['rr_gs_gpt4', 'post_hoc_gs_gpt4']);

/** One cited evidence as ExpertQA keeps it: `[n] URL`, a blank line, then the passage of the page. */
const EXPERTQA_EVIDENCE = /^\[\d+\] \S+\n\n([\s\S]*)$/;

/** A claim without its answer's citation markers (`[3]`) and the spaces before each. */
function withoutMarkers(claim: string): string {
  const parts = claim.split(/(\[\d+\])/);
  return parts
    .map((p, i) => (i % 2 === 1 ? '' : i + 1 < parts.length ? p.trimEnd() : p))
    .join('')
    .trim();
}

/**
 * ExpertQA: claims of real GPT-4 answers to experts' questions, each against the one web passage it cites, judged by
 * the expert who asked. A claim citing several passages is left out (its judgement is of them together), and the
 * answer's own citation markers (`[3]`) are taken off the claim, since the evaluation cites the page itself. The id
 * is a hash of question, system and claim: the same claim read from two of the files is one pair.
 */
function parseExpertQa(text: string): Array<Omit<RealPair, 'set' | 'split' | 'language'>> {
  const out: Array<Omit<RealPair, 'set' | 'split' | 'language'>> = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as {
      question: string;
      answers: Record<string, { claims: Array<{ claim_string: string; evidence: unknown; support: unknown }> }>;
    };
    for (const [system, answer] of Object.entries(r.answers)) {
      if (!EXPERTQA_SYSTEMS.has(system)) continue;
      for (const c of answer.claims) {
        const gold = typeof c.support === 'string' ? EXPERTQA_LABELS[c.support] : undefined;
        if (!gold || !Array.isArray(c.evidence) || c.evidence.length !== 1) continue;
        const m = EXPERTQA_EVIDENCE.exec(String(c.evidence[0]));
        const page = m?.[1]?.trim() ?? '';
        if (page === '') continue;
        const hash = createHash('sha256').update(`${r.question}\u0000${system}\u0000${c.claim_string}`).digest('hex');
        const claim = withoutMarkers(c.claim_string);
        out.push({ id: `${system}-${hash.slice(0, 12)}`, claim, page: { title: '', text: page }, gold });
      }
    }
  }
  return out;
}

/**
 * The sets. No Korean set is among them: none reachable here has labels of real Korean claims against real pages
 * under a licence that allows this use. KLUE-NLI is reserved for the project's own checks; KorNLI's XNLI part is a
 * translation of XNLI, whose licence is non-commercial (CC BY-NC 4.0); KorNLI's machine-translated train files are
 * over the snapshot's 4 MiB limit; KorFactScore is CC BY-NC 4.0; LEAP NLI states no licence.
 * docs/analysis.md#real-labelled-sets lists every candidate examined and what Korean labels rest on meanwhile.
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
  {
    // Untouched: added after the judge's last choice and read once, for the figures in docs/analysis.md.
    name: 'expertqa-gs',
    language: 'en',
    repo: 'chaitanyamalaviya/ExpertQA',
    commit: '1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87',
    // The long-form QA splits keep whole annotated records; the main file (r2_compiled_anon.jsonl) is too large for
    // the snapshot. The random and domain splits hold the same records differently cut: read once each.
    files: [
      { path: 'data/lfqa/rand_test.jsonl', split: 'heldout' },
      { path: 'data/lfqa/rand_val.jsonl', split: 'heldout' },
      { path: 'data/lfqa/domain_test.jsonl', split: 'heldout' },
      { path: 'data/lfqa/domain_val.jsonl', split: 'heldout' },
    ],
    licence: "MIT (the repository and its data); the quoted web passages keep their sites' terms (not committed)",
    describe: 'claims of real GPT-4 answers against the web passage each cites (complete / partial / incomplete)',
    evaluationOnly: true,
    parse: parseExpertQa,
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
  const seen = new Set<string>();
  return s.files.flatMap((f) => {
    if (s.evaluationOnly && f.split !== 'heldout') throw new Error(`${s.name}: an evaluation-only set trains nothing`);
    const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${s.commit}:${f.path}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // A pair read again from a later file of the set (the same id) is the same pair: kept once.
    return s.parse(text, f.path).flatMap((p) => {
      if (seen.has(p.id)) return [];
      seen.add(p.id);
      const split = f.split === 'byId' ? splitById(s.name, p.group ?? p.id) : f.split;
      return [{ ...p, set: s.name, language: s.language, split }];
    });
  });
}

/** Sets that are evaluated only (`evaluationOnly`): training never reads their rows. */
export const EVALUATION_ONLY: ReadonlySet<string> = new Set(
  REAL_SETS.filter((s) => s.evaluationOnly).map((s) => s.name),
);
