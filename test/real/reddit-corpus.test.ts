/**
 * FORUM (Reddit) against real recorded answers (test/fixtures/real/reddit, see PROVENANCE.md there):
 * a loopback server replays each recorded body for the request the real adapter makes, the task
 * runs through the service over HTTP, and the result is scored field by field against the values
 * the source projects assert and the values derived from the bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bagOfWordsF1,
  failureKind,
  MAX_ATTEMPTS,
  printTable,
  RESTING_KINDS,
  RETRIED_KINDS,
  readCorpusFile,
  restStrikes,
  startReplayServer,
  type ReplayServer,
  unlink,
} from './harness.js';
import { fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';

interface Source {
  position: number;
  url: string;
  label: string;
}
interface ExpectedSource {
  url: string;
  label?: string;
}
interface Asserted {
  by: string;
  postIds?: string[];
  firstPostId?: string;
  firstTitle?: string;
  count?: number;
  minCount?: number;
  allSubreddit?: string;
  allDomain?: string;
  topLevelIds?: string[];
  textContains?: string[];
  titlePrefix?: string;
  author?: string;
  firstCommentAuthor?: string;
  linkUrl?: string;
  firstCommentNotDeleted?: boolean;
}
interface Case {
  id: string;
  file: string;
  status: number;
  contentType: string;
  payload: Record<string, string>;
  shape?: 'listing' | 'thread';
  replay?: boolean;
  expect: {
    code: string;
    kind?: string;
    /** Upstream calls the task makes (default: one, or every attempt for a kind that is retried). */
    calls?: number;
    /** Whether each attempt rests the exit address (default: by kind, see COOLED). */
    cooldown?: boolean;
    sources?: ExpectedSource[];
    after?: string | null;
    title?: string;
    author?: string | null;
    comments?: number;
    topLevelIds?: string[];
    moreComments?: number;
  };
  asserted?: Asserted;
}
interface ForumPost {
  id: string;
  title: string;
  author: string | null;
  subreddit: string;
  domain: string | null;
}
interface ForumComment {
  id: string;
  author: string | null;
  deleted: boolean;
  replies: ForumComment[];
}

const DIR = new URL('../fixtures/real/reddit/', import.meta.url);
const { cases } = JSON.parse(readCorpusFile(new URL('cases.json', DIR)).toString('utf8')) as { cases: Case[] };
const body = (c: Case) => readCorpusFile(new URL(c.file, DIR));

/**
 * Expected text of a thread: title, selftext and every loaded comment body, link targets removed (words only are
 * compared).
 */
function threadWords(json: unknown): string {
  const [post, comments] = json as [
    { data: { children: Array<{ kind: string; data: Record<string, unknown> }> } },
    { data: { children: unknown[] } },
  ];
  const p = post.data.children.find((c) => c.kind === 't3')?.data ?? {};
  const out: string[] = [String(p.title ?? ''), String(p.selftext ?? '')];
  const walk = (children: unknown[]) => {
    for (const c of children as Array<{ kind: string; data: { body?: string; replies?: unknown } }>) {
      if (c.kind !== 't1') continue;
      out.push(c.data.body ?? '');
      const r = c.data.replies as { data?: { children?: unknown[] } } | '';
      if (r !== '' && r.data?.children) walk(r.data.children);
    }
  };
  walk(comments.data.children);
  return unlink(out.join('\n'));
}
const countComments = (list: ForumComment[]): number => list.reduce((n, c) => n + 1 + countComments(c.replies), 0);
const postIdOf = (url: string) => /\/comments\/([a-z0-9]+)/i.exec(url)?.[1] ?? '';

/** What the replayed request path must look like for each kind of call (anonymous access: `.json`). */
function expectedPath(c: Case): RegExp {
  const p = c.payload;
  if (p.url) return /^\/comments\/[a-z0-9]+\.json\?/i;
  if (p.action === 'feed') return p.community ? new RegExp(`^/r/${p.community}/hot\\.json\\?`, 'i') : /^\/hot\.json\?/;
  if (p.action === 'user_posts') return /^\/user\/[^/]+\/submitted\.json\?/;
  return p.community ? new RegExp(`^/r/${p.community}/search\\.json\\?.*restrict_sr=1`, 'i') : /^\/search\.json\?/;
}

interface Outcome {
  row: Record<string, string | number>;
  failures: string[];
}

describe('FORUM real-input corpus (Reddit JSON)', () => {
  let replay: ReplayServer;
  let svc: RunningService;
  let current: Case | null = null;
  const logLines: string[] = [];
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    replay = await startReplayServer(({ url }) => {
      if (!current || !expectedPath(current).test(url)) return undefined;
      return { status: current.status, headers: { 'content-type': current.contentType }, body: body(current) };
    });
    const dir = tempDir();
    const config = fastConfig(dir, {
      engines: {
        FORUM: { upstream: { baseUrl: replay.url, options: { userAgent: 'test:aeq-corpus:0.1.0 (by /u/aeq-tests)' } } },
      },
    });
    svc = await startService(
      {
        AEQ_SANDBOX: '0',
        AEQ_CONFIG: config,
        AEQ_ENGINE_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
        AEQ_ENGINE_TIMEOUT_MS: '10000',
      },
      { logLines },
    );
  });
  afterAll(async () => {
    if (outcomes.length > 0)
      printTable(
        'FORUM corpus (Reddit JSON replayed through the real adapter)',
        outcomes.map((o) => o.row),
      );
    await svc?.stop();
    await replay?.close();
  });

  for (const c of cases.filter((x) => x.replay !== false)) {
    it(`${c.id}`, async () => {
      // Each case starts with rested exit addresses (re-enabling clears rests), so its own rests can be counted.
      for (const r of svc.app.pools.exits.list()) svc.app.pools.exits.setDisabled(r.id, false);
      current = c;
      const seenBefore = replay.seen.length;
      const logsBefore = logLines.length;
      const view = await runTask(svc, { taskType: 'FORUM', payload: c.payload }, 15_000);
      current = null;
      const requested = replay.seen.slice(seenBefore).map((s) => s.url.replace(/\?.*$/, ''));
      const failures: string[] = [];
      const code = view.task.status === 'COMPLETED' ? 'COMPLETED' : (String(view.error ?? '').split(':')[0] ?? '');
      const kind = failureKind(logLines.slice(logsBefore));
      const row: Record<string, string | number> = {
        case: c.id,
        request: requested.join(' ') || '-',
        want: c.expect.code,
        got: code,
      };
      if (code !== c.expect.code) failures.push(`code ${code}, want ${c.expect.code}${kind ? ` (kind ${kind})` : ''}`);
      if (c.expect.code !== 'COMPLETED') {
        row.kind = `${kind ?? '-'}${kind === c.expect.kind ? '' : ` (want ${c.expect.kind})`}`;
        // Retried or not: the number of upstream calls; a refusal of one community never rests the exit address.
        const wantCalls = c.expect.calls ?? (RETRIED_KINDS.has(c.expect.kind ?? '') ? MAX_ATTEMPTS : 1);
        if (requested.length !== wantCalls) failures.push(`${requested.length} upstream calls, want ${wantCalls}`);
        const rests = restStrikes(svc.app.pools.exits.list());
        const wantRests = (c.expect.cooldown ?? RESTING_KINDS.has(c.expect.kind ?? '')) ? wantCalls : 0;
        row.rests = rests;
        if (rests !== wantRests) failures.push(`exit address rested ${rests} times, want ${wantRests}`);
      } else if (code === 'COMPLETED') {
        const r = view.response as {
          text: string;
          markdown: string;
          sources: Source[];
          posts?: ForumPost[];
          after?: string | null;
          post?: ForumPost;
          comments?: ForumComment[];
          moreComments?: number;
        };
        if (c.shape === 'listing') scoreListing(c, r, row, failures);
        else scoreThread(c, r, row, failures);
      }
      row.ok = failures.length === 0 ? 'yes' : 'NO';
      outcomes.push({ row, failures });
      expect(failures, failures.join('; ')).toEqual([]);
    });
  }

  it('covers every replayed input (the table above is the report)', () => {
    expect(outcomes.length).toBe(cases.filter((x) => x.replay !== false).length);
    expect(outcomes.filter((o) => o.failures.length > 0).map((o) => o.row.case)).toEqual([]);
  });
});

function scoreSources(
  want: ExpectedSource[],
  got: Source[],
  row: Record<string, string | number>,
  failures: string[],
): void {
  let urlOk = 0;
  let labelOk = 0;
  want.forEach((w, i) => {
    const g = got[i];
    if (g?.url === w.url) urlOk++;
    if (w.label === undefined || g?.label === w.label) labelOk++;
  });
  row.sources = `${got.length}/${want.length}`;
  row.urlAcc = want.length ? urlOk / want.length : 1;
  row.labelAcc = want.length ? labelOk / want.length : 1;
  if (got.length !== want.length) failures.push(`${got.length} sources, want ${want.length}`);
  if (urlOk !== want.length) failures.push(`source URLs right ${urlOk}/${want.length}`);
  if (labelOk !== want.length) failures.push(`source labels right ${labelOk}/${want.length}`);
  if (got.some((s, i) => s.position !== i + 1)) failures.push('source positions are not 1..n');
}

function scoreListing(
  c: Case,
  r: { text: string; sources: Source[]; posts?: ForumPost[]; after?: string | null },
  row: Record<string, string | number>,
  failures: string[],
): void {
  const want = c.expect.sources ?? [];
  scoreSources(want, r.sources, row, failures);
  const titles = bagOfWordsF1(want.map((s) => s.label ?? '').join('\n'), r.text);
  row.textRecall = titles.recall;
  if (titles.recall < 1) failures.push(`title words recall ${titles.recall.toFixed(3)}`);
  if ((r.after ?? null) !== (c.expect.after ?? null)) failures.push(`after ${r.after}, want ${c.expect.after}`);
  const a = c.asserted;
  if (!a) return;
  const ids = r.sources.map((s) => postIdOf(s.url));
  const posts = r.posts ?? [];
  const checks: Array<[boolean, string]> = [];
  if (a.postIds) checks.push([JSON.stringify(ids) === JSON.stringify(a.postIds), 'post ids in order']);
  if (a.firstPostId) checks.push([ids[0] === a.firstPostId, `first post ${a.firstPostId}`]);
  if (a.firstTitle) checks.push([r.sources[0]?.label === a.firstTitle, 'first title']);
  if (a.count !== undefined) checks.push([r.sources.length === a.count, `${a.count} posts`]);
  if (a.minCount !== undefined) checks.push([r.sources.length >= a.minCount, `at least ${a.minCount} posts`]);
  if (a.allSubreddit)
    checks.push([
      posts.length > 0 && posts.every((p) => p.subreddit === a.allSubreddit),
      `every post in r/${a.allSubreddit}`,
    ]);
  if (a.allDomain)
    checks.push([posts.length > 0 && posts.every((p) => p.domain === a.allDomain), `every post links ${a.allDomain}`]);
  assertedRow(checks, row, failures);
}

function scoreThread(
  c: Case,
  r: { text: string; sources: Source[]; post?: ForumPost; comments?: ForumComment[]; moreComments?: number },
  row: Record<string, string | number>,
  failures: string[],
): void {
  const e = c.expect;
  scoreSources(e.sources ?? [], r.sources, row, failures);
  const comments = r.comments ?? [];
  const got = countComments(comments);
  row.comments = `${got}/${e.comments}`;
  if (got !== e.comments) failures.push(`${got} comments, want ${e.comments}`);
  if (JSON.stringify(comments.map((x) => x.id)) !== JSON.stringify(e.topLevelIds))
    failures.push('top-level comment ids differ');
  if (r.moreComments !== e.moreComments) failures.push(`${r.moreComments} unloaded comments, want ${e.moreComments}`);
  if (r.post?.title !== e.title) failures.push('post title differs');
  if ((r.post?.author ?? null) !== (e.author ?? null)) failures.push(`author ${r.post?.author}, want ${e.author}`);
  const words = bagOfWordsF1(threadWords(JSON.parse(body(c).toString('utf8'))), r.text);
  row.textRecall = words.recall;
  if (words.recall < 0.99) failures.push(`text recall ${words.recall.toFixed(3)}`);
  const a = c.asserted;
  if (!a) return;
  const checks: Array<[boolean, string]> = [];
  if (a.topLevelIds)
    checks.push([JSON.stringify(comments.map((x) => x.id)) === JSON.stringify(a.topLevelIds), 'top-level comment ids']);
  if (a.titlePrefix) checks.push([r.post?.title.startsWith(a.titlePrefix) === true, 'title prefix']);
  if (a.author) checks.push([r.post?.author === a.author, 'author']);
  if (a.firstCommentAuthor) checks.push([comments[0]?.author === a.firstCommentAuthor, 'first comment author']);
  if (a.linkUrl) checks.push([r.sources[1]?.url === a.linkUrl, 'linked URL']);
  if (a.firstCommentNotDeleted) checks.push([comments[0]?.deleted === false, 'first comment not deleted']);
  for (const t of a.textContains ?? []) checks.push([r.text.includes(t), `text contains "${t.slice(0, 30)}…"`]);
  assertedRow(checks, row, failures);
}

function assertedRow(checks: Array<[boolean, string]>, row: Record<string, string | number>, failures: string[]): void {
  const ok = checks.filter(([pass]) => pass).length;
  row.asserted = `${ok}/${checks.length}`;
  for (const [pass, what] of checks) if (!pass) failures.push(`asserted by the source: ${what}`);
}
